import { ERROR_CODES, type ErrorCode } from '../contract/errors.ts';
import { isWrite, pathParametersOf, type Route, type RouteError } from './route.ts';

/** A route's error as its OpenAPI response describes it: when it is answered, in REST's words or the catalogue's. */
export type DocumentedError = RouteError & { when: string };

/**
 * Every error an operation can give: its own, and those that follow from its kind. Where REST has nothing to add
 * to the catalogue's words for a code, they are the catalogue's (ERROR_CODES).
 */
export function errorsOf(route: Route): DocumentedError[] {
  const write = isWrite(route);
  const errors: (RouteError | false)[] = [
    {
      code: 'VALIDATION_FAILED',
      when: write
        ? 'a parameter, body field or the Idempotency-Key header is invalid or unknown (text with a control ' +
          'character, a cursor this API did not issue), or the request target or Host is malformed; the message ' +
          'names it'
        : 'a parameter or body field is invalid or unknown (a cursor this API did not issue), or the request ' +
          'target or Host is malformed; the message names it',
    },
    write && {
      code: 'UNAUTHENTICATED',
      when: 'no X-API-Key header: writes need a key',
      example: 'writesNeedKey',
    },
    { code: 'INVALID_API_KEY' },
    write && {
      code: 'FORBIDDEN',
      example: 'scopeMissing',
      when: 'the key lacks the scope in `x-required-scope`; the message names it, and nothing ran',
    },
    pathParametersOf(route.path).length > 0 && { code: 'NOT_FOUND', when: 'no record has this id' },
    ...(route.errors ?? []),
    route.deprecated !== undefined && { code: 'ENDPOINT_SUNSET' },
    write && { code: 'PAYLOAD_TOO_LARGE' },
    { code: 'URI_TOO_LONG' },
    route.body !== undefined && {
      code: 'UNSUPPORTED_MEDIA_TYPE',
      when: 'the body is not sent as application/json',
    },
    write && {
      code: 'IDEMPOTENCY_KEY_IN_USE',
      when: 'the first request with this Idempotency-Key is still running: retry once it has finished',
    },
    write && {
      code: 'IDEMPOTENCY_ANSWER_NOT_KEPT',
      when:
        'the request with this Idempotency-Key ran, but its answer was past what a record keeps ' +
        '(docs/idempotency.md): it is not run again; read its outcome instead',
    },
    write && { code: 'IDEMPOTENCY_KEY_REUSED' },
    {
      code: 'RATE_LIMITED',
      when: 'the key (or anonymous IP) is over its plan; retry after Retry-After seconds',
    },
    { code: 'KEY_BANNED' },
    { code: 'INTERNAL' },
    {
      code: 'UNAVAILABLE',
      when:
        'a dependency (database, rate-limit store) is unreachable or did not answer in time, or the gateway ' +
        'is stopping; retry after Retry-After seconds',
    },
  ];
  return errors
    .filter((error) => error !== false)
    .map((error) => ({ ...error, when: error.when ?? catalogueWhen(error.code) }));
}

/** The catalogue's words for a code, as a clause of a sentence. */
function catalogueWhen(code: ErrorCode): string {
  const { when } = ERROR_CODES[code];
  return when.charAt(0).toLowerCase() + when.slice(1);
}
