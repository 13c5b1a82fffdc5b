import type { GraphQLSchema } from 'graphql';
import { ERROR_STATUS, type ErrorName, entriesOf, exampleOf } from '../contract/errors.ts';
import {
  DEFAULT_PAGE_SIZE,
  IDEMPOTENCY_RETENTION_HOURS,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  MAX_PAGE_SIZE,
} from '../contract/limits.ts';
import { PETS_BY_ID_HEADERS, type PetsByIdDeprecation } from '../contract/pets-by-id.ts';
import { STABILITY } from '../contract/stability.ts';
import { factsOf } from '../graphql/field-facts/facts.ts';
import { bodySchemas } from './body-schemas.ts';
import { RESOURCES, ref, type SchemaObject } from './resources.ts';
import { isWrite, pathParametersOf, type Route, type RouteError, rootFieldOf } from './route.ts';
import { type DocumentedError, errorsOf } from './route-errors.ts';
import { ROUTES } from './routes.ts';

// The first lines say what every operation shares; the rest is folded (<details>) so that /docs opens short.
const DESCRIPTION = `The pet store over REST: the operations of the GraphQL API at [/graphql](/graphql), on the same data and with the same rules. The document is [/openapi.json](/openapi.json); a key holder sees its quota and traffic at [/usage](/usage).

- **Keys**: reads need none (Free plan, counted per client IP). Writes need \`X-API-Key\` with the scope the operation names in \`x-required-scope\` (on /docs, the badge beside it; \`admin\` has every scope).
- **Rate limits**: every response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\` and \`X-RateLimit-Budget: plan\`; over the limit, 429 with \`Retry-After\`.
- **Errors**: the Error object \`{code, message, status}\`, with the HTTP status equal to \`status\`; the message names the field at fault.

<details><summary><b>Ids, paging, HEAD</b></summary>

- **Ids** are int64. Responses write them as JSON numbers, exact beyond 2^53 (though most JSON parsers round them). A request may send one as a JSON number up to 2^53 - 1 (a larger number is refused, 400, rather than changed) or as a string of digits for the whole int64 range: \`"9007199254740993"\`; the same rule holds in GraphQL (docs/http.md).
- **Paging**: lists take \`limit\` (1 to ${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}) and \`cursor\`. When more follow, the \`Link\` header gives the next page, root-relative: \`Link: </pets?limit=${DEFAULT_PAGE_SIZE}&cursor=...>; rel="next"\`. No \`Link\` header: last page.
- **HEAD** is answered wherever GET is, with GET's status and headers and no body; it counts against the rate limit like a GET. The document lists the GET operations only.
</details>

<details><summary><b>Refusals: unknown paths and fields, 503</b></summary>

- Unknown paths are 404 \`NOT_FOUND\`; a method a path does not have is 405 \`METHOD_NOT_ALLOWED\` with an \`Allow\` header. Unknown body fields and query parameters are refused (400).
- **Unavailable**: when the database or the rate-limit store is unreachable or does not answer in time (\`DATABASE_STATEMENT_TIMEOUT_MS\`, a few seconds), and for a request still running when the gateway stops, 503 \`UNAVAILABLE\` with \`Retry-After\`: retry, possibly on another instance.
</details>

<details><summary><b>Caching: ETag and 304, Cache-Control, compression</b></summary>

Every GET answer (200) carries an \`ETag\` made of the store's change counters of what it read and of the request, equal in every gateway process. Send it back as \`If-None-Match\`: while nothing it read has changed, the answer is 304 with no body, decided before the operation runs, and it does not count against the rate limit (the rate-limit headers still show the window). \`Cache-Control\` says who may keep an answer: \`public\` for catalogue reads (with the configured \`max-age\`, else \`no-cache\`: revalidate each time), \`private, no-cache\` for your own orders, \`no-store\` for writes and errors. \`Vary: Accept, Accept-Encoding, X-API-Key\`. Answers from 1 KB are compressed (br, gzip) by \`Accept-Encoding\`.
</details>

<details><summary><b>Idempotent writes: Idempotency-Key</b></summary>

Send \`Idempotency-Key\` (1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters, e.g. a UUID) with a POST, PUT, PATCH or DELETE to retry it safely. The first request runs; a repeat with the same key, API key, method, path and body (compared by meaning: JSON keys in any order, an id as number or text) within ${IDEMPOTENCY_RETENTION_HOURS} hours gets the first response again, with \`Idempotent-Replayed: true\`, and changes nothing. The same key with another request is 422 \`IDEMPOTENCY_KEY_REUSED\`; while the first still runs, 409 \`IDEMPOTENCY_KEY_IN_USE\`. A request refused before it ran (401, 429, 400 for bad input, ...) or that failed with a 5xx keeps nothing, so its key stays free.
</details>

<details><summary><b>Browsers: CORS</b></summary>

Pages on the origins in \`CORS_ORIGINS\` may call the API and read these headers (\`Access-Control-Expose-Headers\`), \`ETag\` among them: a page that keeps an answer sends it back as \`If-None-Match\` and gets 304, free of quota. Credentials (cookies) are never allowed: send the key as \`X-API-Key\`.
</details>`;

const PATH_PARAMETERS: Record<string, string> = {
  petId: 'Identifier of the pet.',
  categoryId: 'Identifier of the category.',
  orderId: 'Identifier of the order.',
};

const INTEGER: SchemaObject = { type: 'integer' };
const STRING: SchemaObject = { type: 'string' };
const header = (description: string, schema: SchemaObject, required = true) => ({
  description,
  required,
  schema,
});

const HEADERS = {
  'X-RateLimit-Limit': header(
    'Requests allowed in the window with fewer requests left (minute or day).',
    INTEGER,
  ),
  'X-RateLimit-Remaining': header('Requests left in that window; never negative.', INTEGER),
  'X-RateLimit-Reset': header('Unix time, in seconds, at which that window resets.', INTEGER),
  'X-RateLimit-Budget': header(
    "The budget that counted the request: the plan's, for every REST request (GraphQL schema loads have their own).",
    { type: 'string', enum: ['plan'] },
  ),
  'Retry-After': header('Seconds to wait before retrying (at least 1); on 429 and 503.', INTEGER),
  Location: header('URL of the created resource, root-relative.', STRING),
  NextPage: header(
    '`<URL of the next page>; rel="next"`, root-relative; absent on the last page.',
    STRING,
    false,
  ),
  Deprecation: header(PETS_BY_ID_HEADERS.Deprecation, STRING),
  Sunset: header(PETS_BY_ID_HEADERS.Sunset, STRING),
  Successor: header(PETS_BY_ID_HEADERS.Successor, STRING),
  ETag: header(
    "The answer's entity tag (weak): send it as `If-None-Match` to get 304 while nothing the answer read has changed.",
    STRING,
  ),
  'Cache-Control': header(
    '`public, max-age=N` or `public, no-cache` for catalogue reads, `private, no-cache` for your own, `no-store` otherwise.',
    STRING,
  ),
  Vary: header('`Accept, Accept-Encoding, X-API-Key`: what changes an answer besides its URL.', STRING),
  'Idempotent-Replayed': header(
    '`true` when this is the recorded response to an earlier request with the same `Idempotency-Key`.',
    { type: 'string', enum: ['true'] },
    false,
  ),
};

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the write safe to retry: a repeat with the same key (same API key, method, path and body) within ' +
    `${IDEMPOTENCY_RETENTION_HOURS} hours gets the first response again instead of running again. 1 to ` +
    `${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters.`,
  schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH, pattern: '^[ -~]+$' },
};

type HeaderName = keyof typeof HEADERS;

/**
 * Each error response's own example: its code (one per code when a status has several, e.g. 401), so that
 * /docs does not show the first code of the Error schema whatever the status.
 */
function errorExamples(errors: RouteError[]) {
  const body = ({ code, example }: RouteError) => exampleOf(example ?? (entriesOf(code)[0] as ErrorName));
  const [only] = errors;
  if (errors.length === 1 && only) return { example: body(only) };
  return {
    examples: Object.fromEntries(
      errors.map((error) => [error.code, { summary: error.code, value: body(error) }]),
    ),
  };
}

// The components named after their meaning are both sent as `Link`.
const HTTP_NAME: Partial<Record<HeaderName, string>> = { NextPage: 'Link', Successor: 'Link' };

const headerRefs = (...names: HeaderName[]) =>
  Object.fromEntries(
    names.map((name) => [HTTP_NAME[name] ?? name, { $ref: `#/components/headers/${name}` }]),
  );

const CACHING_HEADERS = ['ETag', 'Cache-Control', 'Vary'] as const;

const NOT_MODIFIED = (headers: HeaderName[]) => ({
  description:
    'Not modified: `If-None-Match` named the current `ETag`, so the answer you hold is still current. No body; not counted against the rate limit.',
  headers: headerRefs(...headers),
});

const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description:
    'The `ETag` of an answer you hold (or several, comma-separated): 304 while it is still current, without counting against the rate limit. `*` is not honoured.',
  schema: { type: 'string' },
};

const RATE_LIMIT_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Budget',
] as const;

/** The OpenAPI 3.0.3 document of the REST API, built from the route table and the resource schemas. */
export function createOpenApiDocument(options: { schema: GraphQLSchema; petsById: PetsByIdDeprecation }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES) {
    const method = route.method.toLowerCase();
    paths[route.path] = { ...paths[route.path], [method]: operation(route, options) };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Pet Store Gateway', version: '1.0.0', description: DESCRIPTION },
    servers: [{ url: '/' }],
    tags: [
      { name: 'Pets', description: 'Pets and their categories.' },
      { name: 'Store', description: 'Orders and inventory.' },
    ],
    paths,
    components: {
      schemas: { ...RESOURCES, ...bodySchemas(options.schema) },
      headers: HEADERS,
      parameters: { IdempotencyKey: IDEMPOTENCY_KEY, IfNoneMatch: IF_NONE_MATCH },
      securitySchemes: {
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description:
            'An API key (`npm run apikey -- create --plan … --scopes …`). Reads work without one; writes need one ' +
            'with the scope the operation names in `x-required-scope`: `orders` (place, change and cancel your own ' +
            'orders), `catalog` (pets, categories, inventory) or `admin` (everything, every order). Orders are ' +
            'private: a key sees only those it placed, an admin key every order, a caller without a key none.',
        },
      },
    },
  };
}

/** The scope a route's operation needs, as the schema declares it on the root field it runs. */
function requiredScopeOfRoute(schema: GraphQLSchema, route: Route) {
  const kind = isWrite(route) ? schema.getMutationType() : schema.getQueryType();
  const field = kind?.getFields()[rootFieldOf(route)];
  if (!field) throw new Error(`${route.operationId}: the schema has no root field ${rootFieldOf(route)}`);
  return factsOf(field).scope;
}

function operation(
  route: Route,
  { schema, petsById }: { schema: GraphQLSchema; petsById: PetsByIdDeprecation },
) {
  const stability = STABILITY[rootFieldOf(route)];
  const scope = requiredScopeOfRoute(schema, route);
  const deprecated = route.deprecated === 'petsById';
  const needs = scope === 'read' ? '' : `Needs an API key with the \`${scope}\` scope (or \`admin\`).`;
  const description = [route.description, needs].filter(Boolean).join('\n\n');
  return {
    tags: [route.tag],
    operationId: route.operationId,
    summary: route.summary,
    ...(description && { description }),
    parameters: [
      ...pathParametersOf(route.path).map((name) => ({
        name,
        in: 'path',
        required: true,
        description: `${PATH_PARAMETERS[name]} An int64, read exactly.`,
        schema: { type: 'integer', format: 'int64' },
      })),
      ...(route.query ?? []).map(({ name, description, schema }) => ({
        name,
        in: 'query',
        description,
        schema,
        ...(schema.type === 'array' && { style: 'form', explode: false }),
      })),
      ...(isWrite(route) ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
      ...(route.method === 'GET' ? [{ $ref: '#/components/parameters/IfNoneMatch' }] : []),
    ],
    ...(route.body && {
      requestBody: { required: true, content: { 'application/json': { schema: ref(route.body.schema) } } },
    }),
    responses: responses(route, [
      ...(deprecated ? (['Deprecation', 'Sunset', 'Successor'] as const) : []),
      ...(isWrite(route) ? (['Idempotent-Replayed'] as const) : []),
    ]),
    security: isWrite(route) ? [{ ApiKey: [] }] : [{}, { ApiKey: [] }],
    'x-required-scope': scope,
    ...(deprecated && petsById.openApi),
    ...(stability && { 'x-stability': stability }),
    ...(route.hideTryItPanel && { 'x-hideTryItPanel': true }),
  };
}

function responses(route: Route, extraHeaders: readonly HeaderName[]) {
  const json = (schema: SchemaObject) => ({ 'application/json': { schema } });
  const { success } = route;
  const result: Record<string, unknown> = {};
  const common = [...RATE_LIMIT_HEADERS, ...extraHeaders];
  // A GET's answer is tagged, and answered 304 when the client holds it.
  const read = route.method === 'GET';
  const caching = read ? CACHING_HEADERS : [];
  switch (success.kind) {
    case 'resource':
      result['200'] = {
        description: 'OK.',
        headers: headerRefs(...common, ...caching),
        content: json(success.schema),
      };
      break;
    case 'created':
      result['201'] = {
        description: 'Created; `Location` gives its URL.',
        headers: headerRefs(...common, 'Location'),
        content: json(success.schema),
      };
      break;
    case 'page':
      result['200'] = {
        description: 'A page of the list, in id order; `Link` gives the next page when there is one.',
        headers: headerRefs(...common, ...caching, 'NextPage'),
        content: json(success.schema),
      };
      break;
    case 'deleted':
      result['204'] = { description: 'Done; no body.', headers: headerRefs(...common) };
  }
  if (read) result['304'] = NOT_MODIFIED([...RATE_LIMIT_HEADERS, ...CACHING_HEADERS]);
  const byStatus = new Map<number, DocumentedError[]>();
  for (const error of errorsOf(route)) {
    const status = ERROR_STATUS[error.code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), error]);
  }
  for (const [status, errors] of byStatus) {
    result[String(status)] = {
      description: errors.map(({ code, when }) => `\`${code}\`: ${when}.`).join(' '),
      headers: headerRefs(...common, ...(status === 429 || status === 503 ? (['Retry-After'] as const) : [])),
      content: {
        'application/json': {
          schema: {
            allOf: [
              ref('Error'),
              {
                type: 'object',
                properties: {
                  code: { type: 'string', enum: errors.map(({ code }) => code) },
                  status: { type: 'integer', enum: [status] },
                },
              },
            ],
          },
          ...errorExamples(errors),
        },
      },
    };
  }
  return result;
}
