// Swagger UI on the gateway's /openapi.json, with the page's own plugins (operation-marks.js, compact-responses.js).
window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  showExtensions: true,
  // The default sends the document to validator.swagger.io: nothing leaves the gateway.
  validatorUrl: null,
  plugins: [window.OperationMarksPlugin, window.CompactResponsesPlugin],
});
