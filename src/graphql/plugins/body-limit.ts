import type { Plugin } from 'graphql-yoga';
import { declaresMoreThan, payloadTooLarge, readBody } from '../../contract/body-limit.ts';
import { ApiError } from '../../contract/errors.ts';
import { toGraphQLError } from '../../contract/graphql-error.ts';

const withHttpStatus = (error: unknown) =>
  error instanceof ApiError ? toGraphQLError(error, { httpStatus: true }) : error;

/**
 * Refuses GraphQL request bodies over `maxBytes` with PAYLOAD_TOO_LARGE (413), in place of Yoga's own limit
 * (`maxRequestBodySize: false`), which streams every body through a counter. Node's HTTP parser never
 * delivers more than Content-Length, so a body that declares its length is checked from the header alone;
 * only a chunked body is read here, up to the limit.
 */
export function useBodyLimit(maxBytes: number): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      if (declaresMoreThan(request, maxBytes)) throw withHttpStatus(payloadTooLarge(maxBytes));
      if (request.headers.has('content-length') || !request.body || !requestParser) return;
      setRequestParser(async (chunked) => {
        const body = await readBody(chunked, maxBytes).catch((error: unknown) => {
          throw withHttpStatus(error);
        });
        return requestParser(
          new fetchAPI.Request(chunked.url, { method: chunked.method, headers: chunked.headers, body }),
        );
      });
    },
  };
}
