// The error catalogue: every code with its status, and every message the gateway writes, built from named values
// (as mercurius's lib/errors.js). Every layer makes its errors here, the OpenAPI examples and the table in
// docs/errors.md are generated from here, and test/contract/error-answers.db.test.ts holds the answers to it.
import { didYouMean } from 'graphql/jsutils/didYouMean.js';
import { INT64_RULE } from './int64.ts';
import {
  DEFAULT_MAX_BODY_BYTES,
  IDEMPOTENCY_RETENTION_HOURS,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  MAX_PAGE_SIZE,
  MAX_TARGET_BYTES,
  MAX_VARIABLE_DEPTH,
  SUBSCRIPTION_CAP_RETRY_AFTER_SECONDS,
} from './limits.ts';
import { DOCUMENT_ID_PREFIX } from './trusted-documents.ts';

/** The codes of the Error object `{code, message, status}`: the HTTP status each answers with, and when. */
export const ERROR_CODES = {
  VALIDATION_FAILED: {
    status: 400,
    when:
      'A field, parameter, cursor, page size, GraphQL document or variable is invalid; malformed JSON; a ' +
      'request target or Host the gateway cannot serve',
  },
  QUERY_TOO_COMPLEX: {
    status: 400,
    when: 'A GraphQL document beyond the depth, cost, alias, directive or token limit',
  },
  DOCUMENT_NOT_TRUSTED: {
    status: 400,
    when: 'Document text from a caller in trusted-documents `require` mode (or a `documentId` in `off`)',
  },
  DOCUMENT_NOT_FOUND: {
    status: 400,
    when: 'A `documentId` that names no registered document (400, not 404: caches keep no 404 for the URL)',
  },
  PERSISTED_QUERY_NOT_FOUND: {
    status: 400,
    when: "Apollo's `extensions.persistedQuery` hash names no document the caller may run",
  },
  PERSISTED_QUERY_NOT_SUPPORTED: {
    status: 400,
    when: "Apollo's hash from a caller in trusted-documents `off` mode, or a version other than 1",
  },
  UNAUTHENTICATED: { status: 401, when: 'A write without an API key' },
  INVALID_API_KEY: { status: 401, when: 'An unknown or revoked API key, whatever the operation' },
  FORBIDDEN: {
    status: 403,
    when: "A write (or `apiKeys`) outside the key's scopes; names the scope (`extensions.requiredScope`)",
  },
  NOT_FOUND: { status: 404, when: 'The record or the path does not exist' },
  METHOD_NOT_ALLOWED: { status: 405, when: 'A REST path without that method (with `Allow`)' },
  NOT_ACCEPTABLE: {
    status: 406,
    when: '`/graphql` asked (`Accept`) for no type it answers with (JSON, GraphQL response JSON, HTML page)',
  },
  REQUEST_TIMEOUT: {
    status: 408,
    when: 'A request slower to arrive than `HTTP_REQUEST_TIMEOUT_MS` / `HTTP_HEADERS_TIMEOUT_MS`',
  },
  CONFLICT: {
    status: 409,
    when: 'Deleting a pet with open orders or a category with pets; undoing or cancelling a completed order',
  },
  OUT_OF_STOCK: { status: 409, when: 'An order for more than the stock' },
  IDEMPOTENCY_KEY_IN_USE: { status: 409, when: 'A repeat of a keyed write while the first still runs' },
  IDEMPOTENCY_ANSWER_NOT_KEPT: {
    status: 409,
    when: 'A repeat of a keyed write that ran, whose answer was too large to keep (docs/idempotency.md)',
  },
  ENDPOINT_SUNSET: { status: 410, when: '`GET /pets/{petId}` (and `pet(id:)`) after its sunset date' },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    when: 'A body over the configured limit (from Content-Length, or counted while reading)',
  },
  URI_TOO_LONG: { status: 414, when: `A request target (path and query) over ${MAX_TARGET_BYTES} bytes` },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    when: 'A body that is not `application/json` (on `/graphql` this also prevents CSRF)',
  },
  MISDIRECTED_REQUEST: { status: 421, when: 'A Host that is not an attached custom domain' },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    when: 'An `Idempotency-Key` sent before with another request (method, path or body)',
  },
  HEADERS_TOO_LARGE: { status: 431, when: "Request headers over Node's limit (16 KiB)" },
  RATE_LIMITED: { status: 429, when: 'Over the limit (with `Retry-After`)' },
  KEY_BANNED: { status: 429, when: 'Banned for sending on while refused (with `Retry-After`)' },
  TOO_MANY_SUBSCRIPTIONS: {
    status: 429,
    when:
      "A subscription past the caller's cap of open ones (docs/subscriptions.md); " +
      `\`Retry-After: ${SUBSCRIPTION_CAP_RETRY_AFTER_SECONDS}\``,
  },
  INTERNAL: {
    status: 500,
    when: 'Anything unexpected; the message says nothing of the cause (the log does)',
  },
  UNAVAILABLE: {
    status: 503,
    when: 'The database or Redis is unreachable or too slow (failing closed), or the gateway is stopping',
  },
  SLOW_CONSUMER: {
    status: 503,
    when: 'The last event of a subscription stream whose client fell behind its backlog (subscriptions.md)',
  },
} as const satisfies Record<string, { status: number; when: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_STATUS = Object.fromEntries(
  Object.entries(ERROR_CODES).map(([code, { status }]) => [code, status]),
) as { [Code in ErrorCode]: (typeof ERROR_CODES)[Code]['status'] };

export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  status: number;
}

type Id = bigint | number | string;
type NoValues = Record<never, never>;

/** One message of the catalogue: its code, its text from named values, and values to show it with (docs). */
export interface CatalogueEntry<Values extends object = NoValues> {
  code: ErrorCode;
  message: (values: Values) => string;
  example: Values;
}

const entry = <Values extends object = NoValues>(
  code: ErrorCode,
  message: (values: Values) => string,
  example: NoInfer<Values>,
): CatalogueEntry<Values> => ({ code, message, example });

const quoted = (text: string | null) => (text ? JSON.stringify(text) : 'none');
const codePointOf = (character: string) =>
  `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
const RETRY = 'retry shortly';

/**
 * Every message the gateway writes, by name. A message states a limit by its named constant or by a value the
 * caller passes (from configuration), never as retyped text.
 */
export const ERRORS = {
  // A field of an input (a GraphQL variable's value or a REST body, which is its operation's `$input`): the input
  // check (graphql/input-check.ts) says what its type refuses, the store (store/validate.ts) what its rule
  // refuses, with the rule's limits; the message always names the field first. A hint (" Did you mean …?") is
  // graphql-js's, and taken out again in production (graphql/plugins/hide-suggestions.ts).
  fieldEmpty: entry<{ field: string }>('VALIDATION_FAILED', ({ field }) => `${field}: must not be empty`, {
    field: 'name',
  }),
  fieldTooLong: entry<{ field: string; max: number; length: number }>(
    'VALIDATION_FAILED',
    ({ field, max, length }) => `${field}: must be at most ${max} characters (got ${length})`,
    // The store's MAX_NAME_LENGTH, which error-catalogue.test.ts holds this example to.
    { field: 'name', max: 200, length: 201 },
  ),
  fieldControlCharacter: entry<{ field: string; character: string; position: number }>(
    'VALIDATION_FAILED',
    ({ field, character, position }) =>
      `${field}: must not contain control characters (found ${codePointOf(character)} at position ${position})`,
    { field: 'name', character: '\u0000', position: 1 },
  ),
  fieldLoneSurrogate: entry<{ field: string }>(
    'VALIDATION_FAILED',
    ({ field }) => `${field}: must be well-formed Unicode (found a lone surrogate)`,
    { field: 'name' },
  ),
  quantityOutOfRange: entry<{ field: string; min: number; max: number; got: unknown }>(
    'VALIDATION_FAILED',
    ({ field, min, max, got }) =>
      `${field}: must be a whole number from ${min} to ${max} (got ${JSON.stringify(got)})`,
    // The store's ORDERED_QUANTITY, which error-catalogue.test.ts holds this example to.
    { field: 'quantity', min: 1, max: 1_000_000, got: 0 },
  ),
  fieldNull: entry<{ field: string }>('VALIDATION_FAILED', ({ field }) => `${field}: must not be null`, {
    field: 'categoryId',
  }),
  fieldRequired: entry<{ field: string }>('VALIDATION_FAILED', ({ field }) => `${field}: is required`, {
    field: 'categoryId',
  }),
  fieldUnknown: entry<{
    field: string;
    input: string;
    known: readonly string[];
    suggestions: readonly string[];
  }>(
    'VALIDATION_FAILED',
    ({ field, input, known, suggestions }) =>
      `${field}: is not a field of ${input} (it has: ${known.join(', ')})${didYouMean(suggestions)}`,
    { field: 'nmae', input: 'NewCategory', known: ['description', 'name'], suggestions: ['name'] },
  ),
  fieldNotObject: entry<{ field: string }>(
    'VALIDATION_FAILED',
    ({ field }) => `${field}: must be an object`,
    { field: 'body' },
  ),
  fieldNotOneOf: entry<{ field: string; allowed: readonly string[]; suggestions: readonly string[] }>(
    'VALIDATION_FAILED',
    ({ field, allowed, suggestions }) =>
      `${field}: must be one of ${allowed.join(', ')}${didYouMean(suggestions)}`,
    { field: 'status', allowed: ['available', 'pending', 'sold'], suggestions: [] },
  ),
  fieldNotString: entry<{ field: string }>('VALIDATION_FAILED', ({ field }) => `${field}: must be a string`, {
    field: 'name',
  }),
  fieldNotInt32: entry<{ field: string }>(
    'VALIDATION_FAILED',
    ({ field }) => `${field}: must be a whole number (32-bit)`,
    { field: '$first' },
  ),
  fieldNotBoolean: entry<{ field: string }>(
    'VALIDATION_FAILED',
    ({ field }) => `${field}: must be true or false`,
    { field: 'complete' },
  ),
  fieldNotDateTime: entry<{ field: string }>(
    'VALIDATION_FAILED',
    ({ field }) => `${field}: must be an ISO 8601 date-time with a time zone, e.g. 2026-11-21T12:00:00Z`,
    { field: 'shipDate' },
  ),
  // A scalar without a wording of its own above (the schema takes no Float, and no scalar of its own but these).
  fieldNotScalar: entry<{ field: string; scalar: string }>(
    'VALIDATION_FAILED',
    ({ field, scalar }) => `${field}: is not a valid ${scalar}`,
    { field: 'price', scalar: 'Float' },
  ),
  // An id of another record that the write would refer to.
  referenceNotFound: entry<{ field: string; what: string; id: Id }>(
    'VALIDATION_FAILED',
    ({ field, what, id }) => `${field}: ${what} ${id} does not exist`,
    { field: 'categoryId', what: 'category', id: 999 },
  ),
  int64Invalid: entry<{ field: string }>(
    'VALIDATION_FAILED',
    ({ field }) => `${field}: must be ${INT64_RULE}`,
    {
      field: 'categoryId',
    },
  ),
  // REST's path and query parameters arrive as text: each is read by its schema, and refused naming it.
  parameterNotInt64: entry<{ parameter: string; got: string }>(
    'VALIDATION_FAILED',
    ({ parameter, got }) =>
      `${parameter}: must be a whole number (int64), e.g. 42; got ${JSON.stringify(got)}`,
    { parameter: 'petId', got: 'rex' },
  ),
  parameterOutOfRange: entry<{ parameter: string; min: number; max: number; got: string }>(
    'VALIDATION_FAILED',
    ({ parameter, min, max, got }) =>
      `${parameter}: must be a whole number from ${min} to ${max}; got ${JSON.stringify(got)}`,
    { parameter: 'limit', min: 1, max: MAX_PAGE_SIZE, got: '0' },
  ),
  parameterNotBoolean: entry<{ parameter: string; got: string }>(
    'VALIDATION_FAILED',
    ({ parameter, got }) => `${parameter}: must be true or false; got ${JSON.stringify(got)}`,
    { parameter: 'complete', got: 'yes' },
  ),
  parameterNotOneOf: entry<{ parameter: string; allowed: readonly string[]; got: string }>(
    'VALIDATION_FAILED',
    ({ parameter, allowed, got }) =>
      `${parameter}: must be one of ${allowed.join(', ')}; got ${JSON.stringify(got)}`,
    { parameter: 'status', allowed: ['available', 'pending', 'sold'], got: 'lost' },
  ),
  parameterTooManyValues: entry<{ parameter: string; maxItems: number; count: number }>(
    'VALIDATION_FAILED',
    ({ parameter, maxItems, count }) => `${parameter}: takes at most ${maxItems} values (got ${count})`,
    { parameter: 'ids', maxItems: MAX_PAGE_SIZE, count: MAX_PAGE_SIZE + 1 },
  ),
  parameterUnknown: entry<{ parameter: string; known: readonly string[] }>(
    'VALIDATION_FAILED',
    ({ parameter, known }) =>
      `${parameter}: is not a query parameter of this operation (it takes: ${known.join(', ') || 'none'})`,
    { parameter: 'page', known: ['status', 'categoryId', 'ids', 'limit', 'cursor'] },
  ),
  parameterRepeated: entry<{ parameter: string }>(
    'VALIDATION_FAILED',
    ({ parameter }) => `${parameter}: must be given once (a list is comma-separated)`,
    { parameter: 'status' },
  ),
  cursorNotIssued: entry<{ field: string }>(
    'VALIDATION_FAILED',
    ({ field }) =>
      `${field}: is not a cursor from this API: pass on, unchanged, the cursor of an edge or of pageInfo`,
    { field: 'cursor' },
  ),
  pageSizeOutOfRange: entry<{ field: string; size: number }>(
    'VALIDATION_FAILED',
    ({ field, size }) => `${field}: must be between 0 and ${MAX_PAGE_SIZE} (got ${size})`,
    { field: 'first', size: MAX_PAGE_SIZE + 1 },
  ),
  firstWithLast: entry(
    'VALIDATION_FAILED',
    () => 'first, last: give one of them, not both (first pages forward, last backward)',
    {},
  ),
  tooManyIds: entry<{ count: number }>(
    'VALIDATION_FAILED',
    ({ count }) => `ids: at most ${MAX_PAGE_SIZE} ids per request (got ${count})`,
    { count: MAX_PAGE_SIZE + 1 },
  ),
  bodyMissing: entry('VALIDATION_FAILED', () => 'body: is missing: send a JSON object', {}),
  bodyMalformed: entry<{ parseError: string }>(
    'VALIDATION_FAILED',
    ({ parseError }) => `body: is not valid JSON (${parseError})`,
    { parseError: 'Unexpected end of JSON input' },
  ),
  idempotencyKeyInvalid: entry<{ problem: 'empty' | 'too long' | 'not printable'; length: number }>(
    'VALIDATION_FAILED',
    ({ problem, length }) =>
      `Idempotency-Key: ${
        problem === 'empty'
          ? 'is empty'
          : problem === 'too long'
            ? `has ${length} characters`
            : 'contains a character that is not printable ASCII'
      }: send 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters, e.g. a UUID`,
    { problem: 'too long', length: MAX_IDEMPOTENCY_KEY_LENGTH + 1 },
  ),
  // A federation router's `_entities` call (graphql/entities.ts, plugins/entity-representations.ts).
  representationNotEntity: entry<{ index: number; entities: readonly string[]; got: string }>(
    'VALIDATION_FAILED',
    ({ index, entities, got }) =>
      `representations[${index}]: __typename must name an entity of this subgraph (${entities.join(', ')}); got ${got}`,
    { index: 1, entities: ['Category', 'Order', 'Pet'], got: '"Review"' },
  ),
  representationIdInvalid: entry<{ typeName: string; got: string }>(
    'VALIDATION_FAILED',
    ({ typeName, got }) => `representations: ${typeName} id must be ${INT64_RULE}; got ${got}`,
    { typeName: 'Pet', got: '"rex"' },
  ),
  // What every later stage builds a URL from (http/request-target.ts).
  hostRepeated: entry<{ count: number }>(
    'VALIDATION_FAILED',
    ({ count }) => `Host: must be sent once; got ${count} Host headers`,
    { count: 2 },
  ),
  hostMissing: entry('VALIDATION_FAILED', () => 'Host: is required in HTTP/1.1', {}),
  hostInvalid: entry<{ host: string }>(
    'VALIDATION_FAILED',
    ({ host }) => `Host: must be a host name or address with an optional port; got ${JSON.stringify(host)}`,
    { host: 'a b' },
  ),
  targetNotPath: entry<{ target: string }>(
    'VALIDATION_FAILED',
    ({ target }) =>
      `request target: must be a path starting with a single / (this gateway is no proxy); got ${JSON.stringify(target)}`,
    { target: 'http://example.com/pets' },
  ),
  targetBadEscape: entry(
    'VALIDATION_FAILED',
    () => 'request target: has a % that is not followed by two hexadecimal digits',
    {},
  ),
  // The parameters of a GraphQL request besides its document.
  documentIdMalformed: entry(
    'VALIDATION_FAILED',
    () =>
      `documentId: expected ${DOCUMENT_ID_PREFIX}<64 lower-case hex digits>, the sha256 of the registered text`,
    {},
  ),
  persistedHashMalformed: entry(
    'VALIDATION_FAILED',
    () => 'extensions.persistedQuery.sha256Hash: expected 64 lower-case hex digits, the sha256 of the text',
    {},
  ),
  persistedHashMismatch: entry(
    'VALIDATION_FAILED',
    () => 'extensions.persistedQuery.sha256Hash: is not the sha256 of the query text sent with it',
    {},
  ),
  nestedTooDeep: entry<{ field: 'variables' | 'extensions' }>(
    'VALIDATION_FAILED',
    ({ field }) => `${field}: nested deeper than ${MAX_VARIABLE_DEPTH} levels`,
    { field: 'variables' },
  ),
  notValidHttp: entry('VALIDATION_FAILED', () => 'The request is not valid HTTP/1.1', {}),
  operationMissing: entry(
    'VALIDATION_FAILED',
    () => 'Send the operation as `query` text, or as the `documentId` of a registered one',
    {},
  ),

  queryTooComplex: entry<{ limit: string }>(
    'QUERY_TOO_COMPLEX',
    ({ limit }) => `${limit} Ask for less in one operation, or split it.`,
    { limit: 'Query depth limit of 12 exceeded, found 13.' },
  ),
  documentTooDeep: entry<{ maxNesting: number }>(
    'QUERY_TOO_COMPLEX',
    ({ maxNesting }) =>
      `Nesting depth of ${maxNesting} brackets exceeded. Ask for less in one operation, or split it.`,
    { maxNesting: 46 },
  ),

  trustedDocumentsOff: entry(
    'DOCUMENT_NOT_TRUSTED',
    () => 'Trusted documents are off for this caller: send the operation as `query` text',
    {},
  ),
  registeredDocumentsOnly: entry(
    'DOCUMENT_NOT_TRUSTED',
    () =>
      'This caller may run registered documents only: send {"documentId": "sha256:<hex>"} instead of `query`',
    {},
  ),
  documentNotFound: entry(
    'DOCUMENT_NOT_FOUND',
    () =>
      'No document is registered with this documentId: register it (npm run documents -- add), or send the text',
    {},
  ),
  persistedQueryNotFound: entry(
    'PERSISTED_QUERY_NOT_FOUND',
    () => 'No document is known by this sha256Hash: send it again with its query text',
    {},
  ),
  persistedQueryVersion: entry(
    'PERSISTED_QUERY_NOT_SUPPORTED',
    () => 'Only version 1 of extensions.persistedQuery is known',
    {},
  ),
  persistedQueriesOff: entry(
    'PERSISTED_QUERY_NOT_SUPPORTED',
    () => 'Persisted queries are off for this caller: send the query text',
    {},
  ),

  writesNeedKey: entry(
    'UNAUTHENTICATED',
    () => 'Writes need an API key: send it in the X-API-Key header',
    {},
  ),
  fieldNeedsKey: entry<{ field: string; scope: string }>(
    'UNAUTHENTICATED',
    ({ field, scope }) => `${field} needs an API key with the ${scope} scope`,
    { field: 'apiKeys', scope: 'admin' },
  ),
  usageNeedsKey: entry(
    'UNAUTHENTICATED',
    () => 'Your usage needs your API key: send it in the X-API-Key header',
    {},
  ),
  streamKeyRevoked: entry(
    'UNAUTHENTICATED',
    () =>
      'The API key this subscription was opened with has been revoked, so the stream has ended: subscribe again with a valid key',
    {},
  ),
  invalidApiKey: entry(
    'INVALID_API_KEY',
    () => 'X-API-Key names no active key: check the value, or ask for a new key',
    {},
  ),

  scopeMissing: entry<{ field: string; scope: string; scopes: string }>(
    'FORBIDDEN',
    ({ field, scope, scopes }) =>
      `${field} needs the ${scope} scope; this key has ${scopes}, so nothing ran. ` +
      `Send it with a key that has ${scope}, or ask the store's operator to grant it`,
    { field: 'createPet', scope: 'catalog', scopes: 'read, orders' },
  ),
  streamScopeLost: entry<{ scope: string }>(
    'FORBIDDEN',
    ({ scope }) =>
      `The API key this subscription was opened with no longer has the scope ${scope}, which this stream needs, so the stream has ended`,
    { scope: 'orders' },
  ),

  recordNotFound: entry<{ what: string; id: Id }>(
    'NOT_FOUND',
    ({ what, id }) => `${what} ${id} does not exist`,
    { what: 'Pet', id: 42 },
  ),
  noSuchPath: entry<{ path: string }>(
    'NOT_FOUND',
    ({ path }) => `Nothing at ${path}; the paths are listed in /openapi.json`,
    { path: '/pet' },
  ),
  metricsPortOnly: entry('NOT_FOUND', () => 'This port serves GET /metrics only', {}),

  methodNotAllowed: entry<{ method: string; path: string; allow: string }>(
    'METHOD_NOT_ALLOWED',
    ({ method, path, allow }) => `${method} is not allowed on ${path}; it allows ${allow}`,
    { method: 'DELETE', path: '/pets', allow: 'GET, HEAD, POST' },
  ),
  readOnlyPath: entry<{ path: string }>(
    'METHOD_NOT_ALLOWED',
    ({ path }) => `${path} answers GET and HEAD only`,
    { path: '/openapi.json' },
  ),

  acceptsNoAnswer: entry(
    'NOT_ACCEPTABLE',
    () =>
      'Accept names no type /graphql answers with: accept application/json or application/graphql-response+json',
    {},
  ),
  acceptsNoParts: entry(
    'NOT_ACCEPTABLE',
    () =>
      'This operation answers in parts (@defer or @stream): accept multipart/mixed or text/event-stream, or leave the directives out',
    {},
  ),

  requestTimeout: entry(
    'REQUEST_TIMEOUT',
    () => 'The request took too long to arrive; send it again at once',
    {},
  ),

  petHasOpenOrders: entry<{ id: Id; openOrders: number }>(
    'CONFLICT',
    ({ id, openOrders }) =>
      `Pet ${id} has ${openOrders} open order(s); complete or cancel them before deleting the pet`,
    { id: 42, openOrders: 2 },
  ),
  categoryHasPets: entry<{ id: Id; pets: number }>(
    'CONFLICT',
    ({ id, pets }) =>
      `Category ${id} still has ${pets} pet(s); move or delete them before deleting the category`,
    // The demo catalogue's Birds (id 3) has one pet: /docs shows what deleting it answers.
    { id: 3, pets: 1 },
  ),
  orderCompletionFinal: entry<{ id: Id }>(
    'CONFLICT',
    ({ id }) => `Order ${id} is complete; completion cannot be undone`,
    { id: 7 },
  ),
  completeOrderNotCancelled: entry<{ id: Id }>(
    'CONFLICT',
    ({ id }) => `Order ${id} is complete and cannot be cancelled`,
    { id: 7 },
  ),
  outOfStock: entry<{ petId: Id; inStock: number; requested: number }>(
    'OUT_OF_STOCK',
    ({ petId, inStock, requested }) =>
      `Pet ${petId} has ${inStock} in stock; ${requested} requested. Order at most ${inStock}.`,
    // The demo catalogue's Bella (id 2) has one in stock.
    { petId: 2, inStock: 1, requested: 2 },
  ),

  idempotencyKeyInUse: entry(
    'IDEMPOTENCY_KEY_IN_USE',
    () => 'The first request with this Idempotency-Key is still running: retry once it has finished',
    {},
  ),
  idempotencyAnswerNotKept: entry<{ status: number; digest: string }>(
    'IDEMPOTENCY_ANSWER_NOT_KEPT',
    ({ status, digest }) =>
      `The first request with this Idempotency-Key ran and answered ${status}, but its answer was ` +
      `larger than an idempotency record keeps (sha256 ${digest}), so it cannot be replayed. ` +
      'It is not run again: read its outcome instead (e.g. GET what it wrote)',
    { status: 201, digest: '<hex>' },
  ),
  idempotencyKeyReused: entry(
    'IDEMPOTENCY_KEY_REUSED',
    () =>
      `Idempotency-Key was sent in the last ${IDEMPOTENCY_RETENTION_HOURS} hours with another request ` +
      '(method, path or body): send a new key for a new request',
    {},
  ),

  endpointSunset: entry<{ sunset: string }>(
    'ENDPOINT_SUNSET',
    ({ sunset }) =>
      `GET /pets/{petId} and pet(id:) were retired on ${sunset}; use GET /pets?ids={petId} or pets(ids: [id])`,
    { sunset: 'Thu, 01 Jul 2027 00:00:00 GMT' },
  ),

  bodyTooLarge: entry<{ maxBytes: number }>(
    'PAYLOAD_TOO_LARGE',
    ({ maxBytes }) => `The body is larger than ${maxBytes} bytes; send less data per request`,
    { maxBytes: DEFAULT_MAX_BODY_BYTES },
  ),
  targetTooLong: entry(
    'URI_TOO_LONG',
    () =>
      `The request target is longer than ${MAX_TARGET_BYTES} bytes; send long GraphQL documents with POST`,
    {},
  ),

  restBodyNotJson: entry<{ contentType: string | null }>(
    'UNSUPPORTED_MEDIA_TYPE',
    ({ contentType }) =>
      `Send the body as JSON with Content-Type: application/json (got ${quoted(contentType)})`,
    { contentType: 'text/plain' },
  ),
  graphqlFormBody: entry<{ contentType: string | null }>(
    'UNSUPPORTED_MEDIA_TYPE',
    ({ contentType }) =>
      `POST /graphql needs Content-Type: application/json (got ${quoted(contentType)}); ` +
      'form and plain-text bodies are refused, as a page on another site could send them',
    { contentType: 'text/plain' },
  ),
  graphqlBodyNotJson: entry<{ contentType: string | null }>(
    'UNSUPPORTED_MEDIA_TYPE',
    ({ contentType }) => `POST /graphql needs Content-Type: application/json (got ${quoted(contentType)})`,
    { contentType: 'application/xml' },
  ),

  hostNotServed: entry<{ host: string; primary: string }>(
    'MISDIRECTED_REQUEST',
    ({ host, primary }) => `${host} is not a domain of this service; use ${primary} or attach ${host}`,
    { host: 'old.example.com', primary: 'api.example.com' },
  ),
  hostUnusable: entry<{ primary: string }>(
    'MISDIRECTED_REQUEST',
    ({ primary }) => `The request has no usable Host header; send Host: ${primary}`,
    { primary: 'api.example.com' },
  ),

  headersTooLarge: entry('HEADERS_TOO_LARGE', () => 'The request headers are too large', {}),

  rateLimited: entry<{
    limit: number;
    per: string;
    who: 'key' | 'address';
    budget: string;
    retryAfter: number;
  }>(
    'RATE_LIMITED',
    ({ limit, per, who, budget, retryAfter }) =>
      `Rate limit exceeded: ${who === 'key' ? 'this API key' : 'requests without an API key from this address'} ` +
      `may make ${limit} ${budget === 'introspection' ? 'introspection-only requests (schema loads)' : 'requests'} ` +
      `per ${per}; retry in ${retryAfter} s (Retry-After)`,
    { limit: 60, per: 'minute', who: 'address', budget: 'plan', retryAfter: 12 },
  ),
  fieldRateLimited: entry<{
    field: string;
    limit: number;
    seconds: number;
    points: number;
    left: number;
    retryAfter: number;
  }>(
    'RATE_LIMITED',
    ({ field, limit, seconds, points, left, retryAfter }) =>
      `${field} is limited to ${limit} calls per ${seconds} s per caller; this operation makes ${points} and ` +
      `${left} are left, so none of it ran; retry in ${retryAfter} s`,
    { field: 'placeOrder', limit: 10, seconds: 60, points: 2, left: 1, retryAfter: 30 },
  ),
  keyBanned: entry<{ retryAfter: number }>(
    'KEY_BANNED',
    ({ retryAfter }) =>
      `Temporarily banned for sending on while rate-limited: retry in ${retryAfter} s (Retry-After), then back off exponentially after a 429`,
    { retryAfter: 600 },
  ),
  tooManySubscriptions: entry<{ plan: string | null; cap: number }>(
    'TOO_MANY_SUBSCRIPTIONS',
    ({ plan, cap }) =>
      `${plan === null ? 'this address without an API key' : `this API key (${plan} plan)`} may keep ${cap} ` +
      'subscription(s) open at once: close one first',
    { plan: 'free', cap: 2 },
  ),

  internal: entry('INTERNAL', () => 'Unexpected error.', {}),

  databaseUnavailable: entry('UNAVAILABLE', () => `The database is unavailable right now; ${RETRY}`, {}),
  keyLookupUnavailable: entry('UNAVAILABLE', () => `The API key cannot be checked right now; ${RETRY}`, {}),
  rateLimitsUnavailable: entry('UNAVAILABLE', () => `Rate limits cannot be checked right now; ${RETRY}`, {}),
  subscriptionLimitsUnavailable: entry(
    'UNAVAILABLE',
    () => `Subscription limits cannot be checked right now; ${RETRY}`,
    {},
  ),
  shuttingDown: entry('UNAVAILABLE', () => 'The gateway is shutting down; retry the request', {}),
  nothingKept: entry(
    'UNAVAILABLE',
    () =>
      'The request could not be completed and nothing of it was kept: retry it with the same Idempotency-Key',
    {},
  ),

  slowConsumer: entry<{ eventsBehind: number; bytesBehind: number; maxEvents: number; maxBytes: number }>(
    'SLOW_CONSUMER',
    ({ eventsBehind, bytesBehind, maxEvents, maxBytes }) =>
      `This stream fell ${eventsBehind} event(s) (${bytesBehind} bytes) behind, past its limit of ${maxEvents} ` +
      `events or ${maxBytes} bytes not yet read, so it was ended and its events dropped: read events as they ` +
      'come, then subscribe again and read the current state (each event has a version to compare)',
    { eventsBehind: 1001, bytesBehind: 98_304, maxEvents: 1000, maxBytes: 1_048_576 },
  ),
};

export type ErrorName = keyof typeof ERRORS;
export type ValuesOf<Name extends ErrorName> = (typeof ERRORS)[Name]['example'];
// An entry without values is made without an argument.
export type ValuesArgument<Name extends ErrorName> =
  Record<never, never> extends ValuesOf<Name> ? [values?: ValuesOf<Name>] : [values: ValuesOf<Name>];

/** The message an entry writes with these values. */
export function messageOf<Name extends ErrorName>(name: Name, ...values: ValuesArgument<Name>): string {
  const { message } = ERRORS[name] as CatalogueEntry<object>;
  const [given] = values as [object?];
  return message(given ?? {});
}

/** The entry's example, as the Error object a client would read. */
export function exampleOf(name: ErrorName): ErrorBody {
  const { code, message, example } = ERRORS[name] as CatalogueEntry<object>;
  return { code, message: message(example), status: ERROR_STATUS[code] };
}

/** The entries of a code, in catalogue order: the first is the code's example where nothing names another. */
export const entriesOf = (code: ErrorCode): ErrorName[] =>
  (Object.keys(ERRORS) as ErrorName[]).filter((name) => ERRORS[name].code === code);

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;

  /** Made by `apiError` only, so that every message is one of the catalogue's. */
  constructor(
    readonly entry: ErrorName,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = ERRORS[entry].code;
    this.status = ERROR_STATUS[this.code];
  }

  /** graphql-js copies an error's `extensions` onto the GraphQL error it wraps it in. */
  get extensions(): { code: ErrorCode; status: number } {
    return { code: this.code, status: this.status };
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, status: this.status };
  }
}

/** The catalogue's error `name`, with its message written from `values`. */
export function apiError<Name extends ErrorName>(name: Name, ...values: ValuesArgument<Name>): ApiError {
  return new ApiError(name, messageOf(name, ...values));
}

export const notFound = (what: string, id: Id) => apiError('recordNotFound', { what, id });

/** The record a lookup found, or NOT_FOUND naming what was looked for. */
export async function found<T>(lookup: Promise<T | null>, what: string, id: bigint): Promise<T> {
  const record = await lookup;
  if (record === null) throw notFound(what, id);
  return record;
}
