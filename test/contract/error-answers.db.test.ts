// Each message of the catalogue, provoked over real HTTP, answers exactly as its entry writes it: the code, the
// status (of the response, for REST and whole-request refusals) and the message, with nothing changed in the
// store. An entry not provoked here names the test that does; a new entry must be placed in one list or the other.
import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ERROR_STATUS,
  ERRORS,
  type ErrorBody,
  type ErrorName,
  messageOf,
  type ValuesArgument,
} from '../../src/contract/errors.ts';
import { MAX_TARGET_BYTES } from '../../src/contract/limits.ts';
import { type RestResponse, useRestClient } from '../rest/client.ts';
import { type GraphQLResponse, useTestApp } from '../support/app.ts';
import { createTestKey } from '../support/keys.ts';

const MAX_BODY_BYTES = 1024;

/**
 * Entries provoked by the tests of their own subject, where their conditions are set up (Redis or the database
 * down, a shutdown, another trusted-documents mode, streams): those tests hold at least their code and status.
 */
const ELSEWHERE: Partial<Record<ErrorName, string>> = {
  int64Invalid: 'test/http/int64-rule.db.test.ts',
  queryTooComplex: 'test/hardening/graphql-limits.test.ts',
  documentTooDeep: 'test/hardening/graphql-limits.test.ts',
  trustedDocumentsOff: 'test/documents/trusted-documents.db.test.ts',
  registeredDocumentsOnly: 'test/documents/trusted-documents.db.test.ts',
  persistedQueriesOff: 'test/documents/trusted-documents.db.test.ts',
  streamKeyRevoked: 'test/subscriptions',
  streamScopeLost: 'test/subscriptions',
  metricsPortOnly: 'test/ops/metrics-port.test.ts',
  requestTimeout: 'test/http/malformed.test.ts',
  idempotencyKeyInUse: 'test/idempotency/writes.db.test.ts',
  idempotencyAnswerNotKept: 'test/idempotency/limits.db.test.ts',
  hostNotServed: 'test/domains/gateway.test.ts',
  hostUnusable: 'test/domains/gateway.test.ts',
  fieldRateLimited: 'test/ratelimit/field-limits.test.ts',
  tooManySubscriptions: 'test/subscriptions',
  internal: 'test/http/pipeline.test.ts',
  databaseUnavailable: 'test/http/database-down.test.ts',
  keyLookupUnavailable: 'test/ratelimit/gateway-redis-down.db.test.ts',
  rateLimitsUnavailable: 'test/ratelimit/redis-failure.test.ts',
  subscriptionLimitsUnavailable: 'test/ratelimit/gateway-redis-down.db.test.ts',
  shuttingDown: 'test/process/drain.test.ts',
  nothingKept: 'test/idempotency/atomicity.db.test.ts',
  slowConsumer: 'test/subscriptions',
};

const app = useTestApp({
  http: true,
  env: {
    REST_MAX_BODY_BYTES: String(MAX_BODY_BYTES),
    GRAPHQL_MAX_BODY_BYTES: String(MAX_BODY_BYTES),
    RATE_LIMIT_BAN_AFTER: '1',
    PETS_BY_ID_DEPRECATED_AT: '2020-01-01',
    PETS_BY_ID_SUNSET_AT: '2021-06-30T12:00:00Z',
  },
});
const rest = useRestClient(app);
let categoryId: number;
const provoked = new Set<ErrorName>();

beforeAll(async () => {
  categoryId = (await rest.post('/categories', { name: 'Dogs' })).body.id;
});

/** The Error object as a client reads it from a GraphQL response's first error. */
async function graphqlError(response: Promise<GraphQLResponse> | GraphQLResponse) {
  const answer = await response;
  const [error] = answer.body.errors ?? [];
  const { code, status } = (error?.extensions ?? {}) as { code: ErrorBody['code']; status: number };
  return { httpStatus: answer.status, error: { code, message: error?.message, status } };
}

/** Asserts `answer` is the catalogue's entry `name` with `values`, answered with the entry's status. */
function expectEntry<Name extends ErrorName>(
  answer: { httpStatus: number; error: unknown },
  name: Name,
  ...values: ValuesArgument<Name>
) {
  provoked.add(name);
  const { code } = ERRORS[name];
  expect(answer.error, name).toEqual({
    code,
    message: messageOf(name, ...values),
    status: ERROR_STATUS[code],
  });
  expect(answer.httpStatus, name).toBe(ERROR_STATUS[code]);
}

const restAnswer = (response: RestResponse) => ({ httpStatus: response.status, error: response.body });

describe('REST answers', () => {
  it('writes each refusal as its entry says, changing nothing', async () => {
    const before = await app.counts();
    expectEntry(restAnswer(await rest.get('/pets/1/owners')), 'noSuchPath', { path: '/pets/1/owners' });
    expectEntry(restAnswer(await rest.put('/pets', { name: 'x', categoryId })), 'methodNotAllowed', {
      method: 'PUT',
      path: '/pets',
      allow: 'GET, HEAD, POST',
    });
    const text = await rest.post('/pets', 'x', { headers: { 'content-type': 'text/plain' } });
    expectEntry(restAnswer(text), 'restBodyNotJson', { contentType: 'text/plain' });
    const big = await rest.post('/pets', { name: 'x'.repeat(MAX_BODY_BYTES), categoryId });
    expectEntry(restAnswer(big), 'bodyTooLarge', { maxBytes: MAX_BODY_BYTES });
    const empty = await rest.post('/pets', { name: ' ', categoryId });
    expectEntry(restAnswer(empty), 'invalidField', { field: 'name', problem: 'must not be empty' });
    const anonymous = await rest.post('/pets', { name: 'Rex', categoryId }, { key: null });
    expectEntry(restAnswer(anonymous), 'writesNeedKey');
    const unknown = await rest.get('/pets', { key: `psk_${'0'.repeat(43)}` });
    expectEntry(restAnswer(unknown), 'invalidApiKey');
    const narrow = await createTestKey(app.prisma, 'pro', undefined, ['read', 'orders']);
    const outOfScope = await rest.post('/pets', { name: 'Rex', categoryId }, { key: narrow });
    expectEntry(restAnswer(outOfScope), 'scopeMissing', {
      field: 'createPet',
      scope: 'catalog',
      scopes: 'read, orders',
    });
    expectEntry(restAnswer(await rest.get('/categories/999999')), 'recordNotFound', {
      what: 'Category',
      id: 999999,
    });
    const long = await app.fetch(`/pets?x=${'a'.repeat(MAX_TARGET_BYTES)}`);
    expectEntry({ httpStatus: long.status, error: await long.json() }, 'targetTooLong');
    const ops = await app.fetch(`/openapi.json`, { method: 'POST' });
    expectEntry({ httpStatus: ops.status, error: await ops.json() }, 'readOnlyPath', {
      path: '/openapi.json',
    });
    expect(await app.counts()).toEqual(before);
  });

  it('writes the store refusals as their entries say, changing nothing', async () => {
    const pet = (await rest.post('/pets', { name: 'Rex', categoryId })).body;
    await rest.put(`/store/inventory/${pet.id}`, { quantity: 1 });
    const order = (await rest.post('/store/orders', { petId: pet.id })).body;
    const before = await app.counts();
    const tooMany = await rest.post('/store/orders', { petId: pet.id, quantity: 2 });
    expectEntry(restAnswer(tooMany), 'outOfStock', { petId: pet.id, inStock: 0, requested: 2 });
    expectEntry(restAnswer(await rest.delete(`/pets/${pet.id}`)), 'petHasOpenOrders', {
      id: pet.id,
      openOrders: 1,
    });
    expectEntry(restAnswer(await rest.delete(`/categories/${categoryId}`)), 'categoryHasPets', {
      id: categoryId,
      pets: 1,
    });
    await rest.patch(`/store/orders/${order.id}`, { complete: true });
    const reopen = await rest.patch(`/store/orders/${order.id}`, { complete: false });
    expectEntry(restAnswer(reopen), 'orderCompletionFinal', { id: order.id });
    const cancel = await rest.delete(`/store/orders/${order.id}`);
    expectEntry(restAnswer(cancel), 'completeOrderNotCancelled', { id: order.id });
    expect(await app.counts()).toEqual(before);
  });

  it('answers GET /pets/{petId} after its sunset as the catalogue says', async () => {
    const pet = (await rest.post('/pets', { name: 'Old', categoryId })).body;
    expectEntry(restAnswer(await rest.get(`/pets/${pet.id}`)), 'endpointSunset', {
      sunset: 'Wed, 30 Jun 2021 12:00:00 GMT',
    });
  });

  it('refuses a reused Idempotency-Key as the catalogue says', async () => {
    const headers = { 'idempotency-key': 'catalogue-reuse' };
    expect((await rest.post('/categories', { name: 'First' }, { headers })).status).toBe(201);
    const before = await app.counts();
    const reused = await rest.post('/categories', { name: 'Second' }, { headers });
    expectEntry(restAnswer(reused), 'idempotencyKeyReused');
    const badKey = await rest.post('/categories', { name: 'Third' }, { headers: { 'idempotency-key': '' } });
    expectEntry(restAnswer(badKey), 'invalidField', {
      field: 'Idempotency-Key',
      problem: 'is empty: send 1 to 255 printable ASCII characters, e.g. a UUID',
    });
    expect(await app.counts()).toEqual(before);
  });

  it('refuses over the limit, then bans, as the catalogue says', async () => {
    const key = await createTestKey(app.prisma, 'enterprise', { perMinute: 1, perDay: 1000 });
    expect((await rest.get('/categories', { key })).status).toBe(200);
    const limited = await rest.get('/categories', { key });
    expectEntry(restAnswer(limited), 'rateLimited', {
      limit: 1,
      per: 'minute',
      who: 'key',
      budget: 'plan',
      retryAfter: Number(limited.headers.get('retry-after')),
    });
    const banned = await rest.get('/categories', { key });
    expectEntry(restAnswer(banned), 'keyBanned', { retryAfter: Number(banned.headers.get('retry-after')) });
  });
});

describe('GraphQL answers', () => {
  it('writes each refusal as its entry says, changing nothing', async () => {
    const before = await app.counts();
    const write = `mutation { createCategory(input: { name: "Cats" }) { id } }`;
    expectEntry(await graphqlError(app.graphql(write, undefined, { key: null })), 'writesNeedKey');
    expectEntry(
      await graphqlError(app.graphql('{ apiKeys { id } }', undefined, { key: null })),
      'fieldNeedsKey',
      { field: 'apiKeys', scope: 'admin' },
    );
    expectEntry(
      await graphqlError(app.postGraphQL('{}', { contentType: 'text/plain', key: null })),
      'graphqlFormBody',
      {
        contentType: 'text/plain',
      },
    );
    expectEntry(
      await graphqlError(app.postGraphQL('<q/>', { contentType: 'application/xml', key: null })),
      'graphqlBodyNotJson',
      {
        contentType: 'application/xml',
      },
    );
    const big = app.postGraphQL(
      JSON.stringify({ query: `{ pets { edges { cursor } } }`, x: 'x'.repeat(MAX_BODY_BYTES) }),
      { contentType: 'application/json', key: null },
    );
    expectEntry(await graphqlError(big), 'bodyTooLarge', { maxBytes: MAX_BODY_BYTES });
    const image = app.get(`/graphql?query=%7B__typename%7D`, { key: null, headers: { accept: 'image/png' } });
    expectEntry(await graphqlError(image), 'acceptsNoAnswer');
    const deferred = '{ categories { edges { node { id ... @defer { name } } } } }';
    const inParts = app.graphql(deferred, undefined, { headers: { accept: 'application/json' } });
    expectEntry(await graphqlError(inParts), 'acceptsNoParts');
    expectEntry(
      await graphqlError(app.postGraphQL('{}', { contentType: 'application/json', key: null })),
      'operationMissing',
    );
    const unknownId = JSON.stringify({ documentId: `sha256:${'0'.repeat(64)}` });
    expectEntry(
      await graphqlError(app.postGraphQL(unknownId, { contentType: 'application/json', key: null })),
      'documentNotFound',
    );
    const persisted = (version: number) =>
      JSON.stringify({ extensions: { persistedQuery: { version, sha256Hash: '0'.repeat(64) } } });
    expectEntry(
      await graphqlError(app.postGraphQL(persisted(1), { contentType: 'application/json', key: null })),
      'persistedQueryNotFound',
    );
    expectEntry(
      await graphqlError(app.postGraphQL(persisted(2), { contentType: 'application/json', key: null })),
      'persistedQueryVersion',
    );
    expect(await app.counts()).toEqual(before);
  });

  it('answers a field refused by the store as the catalogue says, with HTTP 200', async () => {
    const missing = await graphqlError(app.graphql('{ category(id: 999998) { id } }'));
    expect(missing.httpStatus).toBe(200);
    expectEntry({ ...missing, httpStatus: ERROR_STATUS.NOT_FOUND }, 'recordNotFound', {
      what: 'Category',
      id: 999998,
    });
  });
});

describe('the usage route', () => {
  it('asks for the key as the catalogue says', async () => {
    const usage = await app.fetch(`/usage`, { headers: { accept: 'application/json' } });
    expectEntry({ httpStatus: usage.status, error: await usage.json() }, 'usageNeedsKey');
  });
});

/** What the server writes on a connection that sends `bytes`, as its status and the Error object. */
async function rawAnswer(bytes: string) {
  const raw = await new Promise<string>((resolve, reject) => {
    const { port, hostname } = new URL(app.url);
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  const [head, body] = raw.split('\r\n\r\n');
  return { httpStatus: Number(head?.split(' ')[1]), error: JSON.parse(body ?? '') };
}

describe('the HTTP server', () => {
  it('answers what node:http refuses as the catalogue says', async () => {
    expectEntry(await rawAnswer('NOT HTTP\r\n\r\n'), 'notValidHttp');
    const huge = `GET /pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
    expectEntry(await rawAnswer(huge), 'headersTooLarge');
  });
});

it('provokes every entry here or names the test that does', () => {
  const unplaced = (Object.keys(ERRORS) as ErrorName[]).filter(
    (name) => !provoked.has(name) && !ELSEWHERE[name],
  );
  expect(unplaced).toEqual([]);
  const twice = [...provoked].filter((name) => ELSEWHERE[name]);
  expect(twice).toEqual([]);
});
