import type { Plugin } from 'graphql-yoga';
import { graphqlRefusal } from '../../contract/graphql-error.ts';

// The content types a web page on another site can POST without a CORS preflight (a form, or fetch in
// no-cors mode); a missing content type counts as text/plain.
const SIMPLE_CONTENT_TYPES = new Set([
  '',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'text/plain',
]);

/**
 * Cross-site request forgery protection: a GraphQL POST must have a content type that a browser only sends
 * after a CORS preflight (application/json, as GraphiQL and every client library send), so a page on another
 * site cannot make a visitor's browser run an operation. GET stays open: Yoga never runs a mutation over
 * GET, and the data a GET reads is public. Any other content type no parser reads is refused here too, with the
 * Error object.
 */
export function useCsrfPrevention(): Plugin {
  return {
    onRequestParse({ request, requestParser }) {
      if (request.method !== 'POST') return;
      const header = request.headers.get('content-type') ?? '';
      // What nearly every client sends, taken by Yoga's JSON parser: nothing to look into.
      if (header === 'application/json' && requestParser) return;
      const type = header.split(';')[0]?.trim().toLowerCase() ?? '';
      const contentType = type || null;
      if (SIMPLE_CONTENT_TYPES.has(type)) {
        throw graphqlRefusal('graphqlFormBody', { contentType });
      }
      // Yoga's parsers run first: none took it. Yoga would answer a bare 415, without the Error object.
      if (!requestParser) {
        throw graphqlRefusal('graphqlBodyNotJson', { contentType });
      }
    },
  };
}
