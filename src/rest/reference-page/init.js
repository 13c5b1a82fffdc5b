// Swagger UI on the gateway's /openapi.json, with two of the document's extensions shown: `x-stability`
// as a badge beside the operation's path, and no "Try it out" where `x-hideTryItPanel` is true.
// Swagger UI marks deprecated operations itself.

function operationField(system, operationProps, field) {
  const { path, method } = operationProps.toObject();
  return system.specSelectors.specJson().getIn(['paths', path, method, field]);
}

function ApiExtensionsPlugin(system) {
  return {
    components: {
      // Swagger UI looks up an input for array items by type and format, and warns in the console when the pair
      // has none: the `ids` list's int64 items get a text input, which keeps every digit.
      JsonSchema_integer_int64: (props) =>
        system.React.createElement(props.getComponent('JsonSchema_string'), props),
    },
    wrapComponents: {
      OperationSummaryPath: (Original, system) => (props) => {
        const h = system.React.createElement;
        const stability = operationField(system, props.operationProps, 'x-stability');
        if (!stability) return h(Original, props);
        const badge = h(
          'span',
          { className: `stability-badge stability-${stability}`, title: `x-stability: ${stability}` },
          stability,
        );
        return h(system.React.Fragment, null, h(Original, props), badge);
      },
      operation: (Original, system) => (props) => {
        const h = system.React.createElement;
        if (operationField(system, props.operation, 'x-hideTryItPanel') !== true) return h(Original, props);
        return h(Original, { ...props, operation: props.operation.set('allowTryItOut', false) });
      },
    },
  };
}

window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  showExtensions: true,
  // The default sends the document to validator.swagger.io: nothing leaves the gateway.
  validatorUrl: null,
  plugins: [ApiExtensionsPlugin],
});
