import type { ServerResponse } from 'node:http';
import { Response } from '@whatwg-node/fetch';
import type { ErrorBody } from './errors.ts';

// The one writer of error answers, whichever layer answers and however: it decides their status (the code's),
// their content type (JSON), their headers and their body (the Error object, or GraphQL's errors).
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export type ResponseHeaders = Record<string, string>;

/**
 * Seconds a client should wait before retrying a request answered UNAVAILABLE (503): the database or Redis
 * did not answer in time, or the gateway is stopping. Short: a retry may well reach another instance.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/** The Error object alone: an ApiError carries more than its three fields. */
const bodyText = ({ code, message, status }: ErrorBody) => JSON.stringify({ code, message, status });

/** The error as GraphQL's response body gives it: the message, and the code and status in `extensions`. */
export const graphqlErrorBody = ({ code, message, status }: ErrorBody) => ({
  errors: [{ message, extensions: { code, status } }],
});

/**
 * An error answer's headers: Retry-After for UNAVAILABLE, then the caller's (by lower-case name, so that theirs
 * replaces it), then the JSON content type.
 */
function headersOf(error: ErrorBody, headers: ResponseHeaders): ResponseHeaders {
  const all: ResponseHeaders =
    error.code === 'UNAVAILABLE' ? { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) } : {};
  for (const [name, value] of Object.entries(headers)) all[name.toLowerCase()] = value;
  all['content-type'] = JSON_CONTENT_TYPE;
  return all;
}

/** Answers a node:http request with the Error object and `headers`. */
export function sendError(res: ServerResponse, error: ErrorBody, headers: ResponseHeaders = {}): void {
  const body = bodyText(error);
  res.writeHead(error.status, { ...headersOf(error, headers), 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * The Error object as a fetch Response, for Yoga's hooks. It is the Response class Yoga answers with itself
 * (@whatwg-node/fetch), which Yoga writes to the socket in one go; a platform Response would be streamed.
 */
export function errorResponse(error: ErrorBody, headers: ResponseHeaders = {}): Response {
  return fetchResponse(error, headers, bodyText(error));
}

/**
 * A GraphQL request refused whole by a response a hook writes rather than Yoga (406 for an Accept it cannot
 * answer, 503 for a keyed write whose writes were undone): `errorResponse` with the error in GraphQL's body.
 */
export function graphqlErrorResponse(error: ErrorBody, headers: ResponseHeaders = {}): Response {
  return fetchResponse(error, headers, JSON.stringify(graphqlErrorBody(error)));
}

function fetchResponse(error: ErrorBody, headers: ResponseHeaders, body: string): Response {
  return new Response(body, { status: error.status, headers: headersOf(error, headers) });
}

/**
 * The Error object as a whole HTTP/1.1 response, for a connection node:http gave up on before there was a
 * response object to write to (malformed or too slow); the connection closes after it.
 */
export function errorResponseBytes(error: ErrorBody): string {
  const body = bodyText(error);
  const headers = { ...headersOf(error, { connection: 'close' }), 'content-length': Buffer.byteLength(body) };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${error.status} ${error.code.replaceAll('_', ' ')}\r\n${lines.join('')}\r\n${body}`;
}

/**
 * A GraphQL refusal Yoga wrote itself from a GraphQLError's `http.status` (made by `toGraphQLError`): a 503 gets
 * the Retry-After an UNAVAILABLE error answer gets, unless a layer set one.
 */
export function completeYogaRefusal(response: Pick<Response, 'status' | 'headers'>): void {
  if (response.status === 503 && !response.headers.has('retry-after')) {
    response.headers.set('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  }
}
