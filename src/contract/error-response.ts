import type { ServerResponse } from 'node:http';
import { Response } from '@whatwg-node/fetch';
import type { ErrorBody } from './errors.ts';

// The one way an error answer is written, whichever layer answers: the Error object as JSON.
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export type ResponseHeaders = Record<string, string>;

/** The Error object alone: an ApiError carries more than its three fields. */
const bodyText = ({ code, message, status }: ErrorBody) => JSON.stringify({ code, message, status });

/**
 * Seconds a client should wait before retrying a request answered UNAVAILABLE (503): the database or Redis
 * did not answer in time, or the gateway is stopping. Short: a retry may well reach another instance.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/** The headers an error answer carries besides the caller's: Retry-After for UNAVAILABLE. */
const errorHeaders = (error: ErrorBody): ResponseHeaders =>
  error.code === 'UNAVAILABLE' ? { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) } : {};

/** Answers a node:http request with the Error object and `headers`. */
export function sendError(res: ServerResponse, error: ErrorBody, headers: ResponseHeaders = {}): void {
  const body = bodyText(error);
  res.writeHead(error.status, {
    ...errorHeaders(error),
    ...headers,
    'content-type': JSON_CONTENT_TYPE,
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * The Error object as a fetch Response, for Yoga's hooks. It is the Response class Yoga answers with itself
 * (@whatwg-node/fetch), which Yoga writes to the socket in one go; a platform Response would be streamed.
 */
export function errorResponse(error: ErrorBody, headers: ResponseHeaders = {}): Response {
  return new Response(bodyText(error), {
    status: error.status,
    headers: { ...errorHeaders(error), ...headers, 'Content-Type': JSON_CONTENT_TYPE },
  });
}

/**
 * The Error object as a whole HTTP/1.1 response, for a connection node:http gave up on before there was a
 * response object to write to (malformed or too slow); the connection closes after it.
 */
export function errorResponseBytes(error: ErrorBody): string {
  const body = bodyText(error);
  return (
    `HTTP/1.1 ${error.status} ${error.code.replaceAll('_', ' ')}\r\n` +
    `Content-Type: ${JSON_CONTENT_TYPE}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}
