// Each message of the catalogue, provoked over real HTTP, answers exactly as its entry writes it: the code, the
// status (of the response, for REST and whole-request refusals) and the message, with nothing changed in the
// store. An entry not provoked here names the test that does; a new entry must be placed in one list or the other.
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_SUBSCRIPTIONS } from '../../src/config/rate-limits.ts';
import {
  ERROR_STATUS,
  ERRORS,
  type ErrorBody,
  type ErrorName,
  messageOf,
  type ValuesArgument,
} from '../../src/contract/errors.ts';
import {
  MAX_IDEMPOTENCY_KEY_LENGTH,
  MAX_PAGE_SIZE,
  MAX_TARGET_BYTES,
  MAX_VARIABLE_DEPTH,
} from '../../src/contract/limits.ts';
import { SCOPES } from '../../src/contract/scopes.ts';
import { createApiKey } from '../../src/keys/repository.ts';
import { MAX_NAME_LENGTH, ORDERED_QUANTITY } from '../../src/store/validate.ts';
import { type RestResponse, useRestClient } from '../rest/client.ts';
import { type Answer, useTestApp } from '../support/app.ts';
import { writeDomainsFile } from '../support/domains-file.ts';
import { subscribe } from '../support/event-stream.ts';
import { getWithHost } from '../support/host-request.ts';
import { createTestKey } from '../support/keys.ts';
import { slowUpload } from '../support/slow-upload.ts';

const MAX_BODY_BYTES = 1024;
const MAX_DEPTH = 10;
const PLACE_ORDER_PER_MINUTE = 5;
const MAX_RECORD_BYTES = 100;

/**
 * Entries provoked by the tests of their own subject, where their conditions are set up (Redis or the database
 * down, a shutdown, a key changed under an open stream, a started process's own listeners): those tests hold
 * at least their code and status.
 */
const ELSEWHERE: Partial<Record<ErrorName, string>> = {
  streamKeyRevoked: 'test/subscriptions',
  streamScopeLost: 'test/subscriptions',
  metricsPortOnly: 'test/ops/metrics-port.test.ts',
  requestTimeout: 'test/ops/process.test.ts',
  internal: 'test/http/pipeline.test.ts',
  databaseUnavailable: 'test/http/database-down.test.ts',
  keyLookupUnavailable: 'test/ratelimit/gateway-redis-down.db.test.ts',
  rateLimitsUnavailable: 'test/ratelimit/redis-failure.test.ts',
  subscriptionLimitsUnavailable: 'test/ratelimit/gateway-redis-down.db.test.ts',
  shuttingDown: 'test/process/drain.test.ts',
  nothingKept: 'test/idempotency/atomicity.db.test.ts',
  slowConsumer: 'test/subscriptions',
  representationNotEntity: 'test/graphql/federation.db.test.ts',
  representationIdInvalid: 'test/graphql/federation.db.test.ts',
  fieldNotScalar: 'test/graphql/input-check.test.ts',
};

const env = {
  GRAPHQL_MAX_DEPTH: String(MAX_DEPTH),
  PLACE_ORDER_PER_MINUTE: String(PLACE_ORDER_PER_MINUTE),
  IDEMPOTENCY_MAX_RECORD_BYTES: String(MAX_RECORD_BYTES),
  REST_MAX_BODY_BYTES: String(MAX_BODY_BYTES),
  GRAPHQL_MAX_BODY_BYTES: String(MAX_BODY_BYTES),
  RATE_LIMIT_BAN_AFTER: '1',
  PETS_BY_ID_DEPRECATED_AT: '2020-01-01',
  PETS_BY_ID_SUNSET_AT: '2021-06-30T12:00:00Z',
};
// Answered in-process; `served`, on a port, for what needs a socket: bytes node:http refuses, a request whose
// body is still on its way, an event stream.
const app = useTestApp({ env });
const served = useTestApp({ http: true, env });
const rest = useRestClient(app);
let categoryId: number;
const provoked = new Set<ErrorName>();

beforeAll(async () => {
  categoryId = (await rest.post('/categories', { name: 'Dogs' })).body.id;
});

/** The Error object as a client reads it from a GraphQL response's first error. */
async function graphqlError(response: Answer | Promise<Answer>) {
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

const restAnswer = (response: RestResponse | Answer) => ({
  httpStatus: response.status,
  error: response.body,
});

/** A pet with one in stock, and an open order of it: the stock is spent. */
async function orderedPet(name: string) {
  const pet = (await rest.post('/pets', { name, categoryId })).body;
  await rest.put(`/store/inventory/${pet.id}`, { quantity: 1 });
  const order = (await rest.post('/store/orders', { petId: pet.id })).body;
  return { pet, order };
}

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
    expectEntry(restAnswer(empty), 'fieldEmpty', { field: 'name' });
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
    const long = await app.get(`/pets?x=${'a'.repeat(MAX_TARGET_BYTES)}`, { key: null });
    expectEntry(restAnswer(long), 'targetTooLong');
    const ops = await app.send('POST', '/openapi.json', { key: null });
    expectEntry(restAnswer(ops), 'readOnlyPath', {
      path: '/openapi.json',
    });
    expect(await app.counts()).toEqual(before);
  });

  it('writes the store refusals as their entries say, changing nothing', async () => {
    const { pet, order } = await orderedPet('Rex');
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

  it('refuses input fields as their entries say, changing nothing', async () => {
    const { pet, order } = await orderedPet('Input');
    const before = await app.counts();
    const category = (name: unknown) => rest.post('/categories', { name });
    const long = 'x'.repeat(MAX_NAME_LENGTH + 1);
    expectEntry(restAnswer(await category(long)), 'fieldTooLong', {
      field: 'name',
      max: MAX_NAME_LENGTH,
      length: MAX_NAME_LENGTH + 1,
    });
    expectEntry(restAnswer(await category('a\u0000b')), 'fieldControlCharacter', {
      field: 'name',
      character: '\u0000',
      position: 1,
    });
    expectEntry(restAnswer(await category('\ud800')), 'fieldLoneSurrogate', { field: 'name' });
    expectEntry(restAnswer(await category(5)), 'fieldNotString', { field: 'name' });
    expectEntry(restAnswer(await category(null)), 'fieldNull', { field: 'name' });
    const patchNull = await rest.patch(`/categories/${categoryId}`, { name: null });
    expectEntry(restAnswer(patchNull), 'fieldNull', { field: 'name' });
    expectEntry(restAnswer(await rest.post('/pets', { name: 'Rex' })), 'fieldRequired', {
      field: 'categoryId',
    });
    const misspelt = await rest.post('/categories', { name: 'Cats', nmae: 'Cats' });
    expectEntry(restAnswer(misspelt), 'fieldUnknown', {
      field: 'nmae',
      input: 'NewCategory',
      known: ['description', 'name'],
      suggestions: ['name'],
    });
    expectEntry(restAnswer(await rest.post('/categories', ['Cats'])), 'fieldNotObject', { field: 'body' });
    const status = await rest.post('/pets', { name: 'Rex', categoryId, status: 'availble' });
    expectEntry(restAnswer(status), 'fieldNotOneOf', {
      field: 'status',
      allowed: ['available', 'pending', 'sold'],
      suggestions: ['available'],
    });
    const { min, max } = ORDERED_QUANTITY;
    for (const quantity of [0, 2 ** 31]) {
      const ordered = await rest.post('/store/orders', { petId: pet.id, quantity });
      expectEntry(restAnswer(ordered), 'quantityOutOfRange', { field: 'quantity', min, max, got: quantity });
    }
    const shipDate = await rest.post('/store/orders', { petId: pet.id, shipDate: 'tomorrow' });
    expectEntry(restAnswer(shipDate), 'fieldNotDateTime', { field: 'shipDate' });
    const complete = await rest.patch(`/store/orders/${order.id}`, { complete: 'yes' });
    expectEntry(restAnswer(complete), 'fieldNotBoolean', { field: 'complete' });
    const noCategory = await rest.post('/pets', { name: 'Rex', categoryId: 999_999 });
    expectEntry(restAnswer(noCategory), 'referenceNotFound', {
      field: 'categoryId',
      what: 'category',
      id: 999_999,
    });
    const noPet = await rest.post('/store/orders', { petId: 999_999 });
    expectEntry(restAnswer(noPet), 'referenceNotFound', { field: 'petId', what: 'pet', id: 999_999 });
    expect(await app.counts()).toEqual(before);
    expect((await rest.get(`/categories/${categoryId}`)).body.name).toBe('Dogs');
  });

  it('refuses a variable of the wrong type as its entry says, changing nothing', async () => {
    const before = await app.counts();
    const query = 'query($first: Int) { pets(first: $first) { edges { cursor } } }';
    // Answered as graphql-js answers its own variable errors: without data, with no HTTP status of its own.
    const answer = await graphqlError(app.graphql(query, { first: 'ten' }));
    expect(answer.httpStatus).toBe(200);
    expectEntry({ ...answer, httpStatus: ERROR_STATUS.VALIDATION_FAILED }, 'fieldNotInt32', {
      field: '$first',
    });
    expect(await app.counts()).toEqual(before);
  });

  it('refuses path and query parameters as their entries say, changing nothing', async () => {
    const before = await app.counts();
    expectEntry(restAnswer(await rest.delete('/pets/rex')), 'parameterNotInt64', {
      parameter: 'petId',
      got: 'rex',
    });
    expectEntry(restAnswer(await rest.get('/pets?limit=0')), 'parameterOutOfRange', {
      parameter: 'limit',
      min: 1,
      max: MAX_PAGE_SIZE,
      got: '0',
    });
    expectEntry(restAnswer(await rest.get('/store/orders?complete=yes')), 'parameterNotBoolean', {
      parameter: 'complete',
      got: 'yes',
    });
    expectEntry(restAnswer(await rest.get('/pets?status=lost')), 'parameterNotOneOf', {
      parameter: 'status',
      allowed: ['available', 'pending', 'sold'],
      got: 'lost',
    });
    const ids = Array.from({ length: MAX_PAGE_SIZE + 1 }, (_, i) => i + 1).join(',');
    expectEntry(restAnswer(await rest.get(`/pets?ids=${ids}`)), 'parameterTooManyValues', {
      parameter: 'ids',
      maxItems: MAX_PAGE_SIZE,
      count: MAX_PAGE_SIZE + 1,
    });
    expectEntry(restAnswer(await rest.get('/pets?page=2')), 'parameterUnknown', {
      parameter: 'page',
      known: ['status', 'categoryId', 'ids', 'limit', 'cursor'],
    });
    expectEntry(restAnswer(await rest.get('/pets?status=sold&status=pending')), 'parameterRepeated', {
      parameter: 'status',
    });
    expectEntry(restAnswer(await rest.get('/pets?cursor=abc')), 'cursorNotIssued', { field: 'cursor' });
    expectEntry(restAnswer(await rest.post('/pets', '')), 'bodyMissing');
    const malformed = '{"name": ';
    const parseError = (() => {
      try {
        JSON.parse(malformed);
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expectEntry(restAnswer(await rest.post('/pets', malformed)), 'bodyMalformed', { parseError });
    const longKey = 'k'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH + 1);
    const tooLong = await rest.post(
      '/categories',
      { name: 'Keyed' },
      { headers: { 'idempotency-key': longKey } },
    );
    expectEntry(restAnswer(tooLong), 'idempotencyKeyInvalid', {
      problem: 'too long',
      length: MAX_IDEMPOTENCY_KEY_LENGTH + 1,
    });
    const unprintable = await rest.post(
      '/categories',
      { name: 'Keyed' },
      { headers: { 'idempotency-key': 'caf\u00e9' } },
    );
    expectEntry(restAnswer(unprintable), 'idempotencyKeyInvalid', {
      problem: 'not printable',
      length: 4,
    });
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
    expectEntry(restAnswer(badKey), 'idempotencyKeyInvalid', { problem: 'empty', length: 0 });
    expect(await app.counts()).toEqual(before);
  });

  it('refuses an id that is no int64 in a body as the catalogue says, changing nothing', async () => {
    const before = await app.counts();
    const answer = await rest.post('/pets', { name: 'Rex', categoryId: 'one' });
    expectEntry(restAnswer(answer), 'int64Invalid', { field: 'categoryId' });
    expect(await app.counts()).toEqual(before);
  });

  it('refuses a repeat of a keyed write still running as the catalogue says, changing nothing', async () => {
    const headers = { 'x-api-key': served.apiKey, 'idempotency-key': 'catalogue-in-use' };
    const body = JSON.stringify({ name: 'Slow' });
    const first = slowUpload(Number(new URL(served.url).port), { path: '/categories', body, headers });
    await first.inFlight;
    const before = await served.counts();
    const repeat = await served.post('/categories', { name: 'Slow' }, { headers });
    expectEntry(restAnswer(repeat), 'idempotencyKeyInUse');
    expect(await served.counts()).toEqual(before);
    first.finish();
    expect((await first.response).status).toBe(201);
  });

  it('refuses a repeat of a keyed write whose answer was not kept as the catalogue says, changing nothing', async () => {
    const headers = { 'idempotency-key': 'catalogue-not-kept' };
    const pet = { name: 'N'.repeat(MAX_RECORD_BYTES), categoryId };
    const first = await rest.post('/pets', pet, { headers });
    expect(first.status).toBe(201);
    const before = await app.counts();
    const repeat = await rest.post('/pets', pet, { headers });
    expectEntry(restAnswer(repeat), 'idempotencyAnswerNotKept', {
      status: 201,
      digest: createHash('sha256').update(first.text).digest('hex'),
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
    const post = (contentType: string, body: string) => app.postGraphQL(body, { contentType, key: null });
    expectEntry(await graphqlError(post('text/plain', '{}')), 'graphqlFormBody', {
      contentType: 'text/plain',
    });
    expectEntry(await graphqlError(post('application/xml', '<q/>')), 'graphqlBodyNotJson', {
      contentType: 'application/xml',
    });
    const big = post(
      'application/json',
      JSON.stringify({ query: `{ pets { edges { cursor } } }`, x: 'x'.repeat(MAX_BODY_BYTES) }),
    );
    expectEntry(await graphqlError(big), 'bodyTooLarge', { maxBytes: MAX_BODY_BYTES });
    const image = app.get('/graphql?query=%7B__typename%7D', { key: null, headers: { accept: 'image/png' } });
    expectEntry(await graphqlError(image), 'acceptsNoAnswer');
    const deferred = '{ categories { edges { node { id ... @defer { name } } } } }';
    const inParts = app.graphql(deferred, undefined, { headers: { accept: 'application/json' } });
    expectEntry(await graphqlError(inParts), 'acceptsNoParts');
    expectEntry(await graphqlError(post('application/json', '{}')), 'operationMissing');
    const unknownId = JSON.stringify({ documentId: `sha256:${'0'.repeat(64)}` });
    expectEntry(await graphqlError(post('application/json', unknownId)), 'documentNotFound');
    const persisted = (version: number) =>
      JSON.stringify({ extensions: { persistedQuery: { version, sha256Hash: '0'.repeat(64) } } });
    expectEntry(await graphqlError(post('application/json', persisted(1))), 'persistedQueryNotFound');
    expectEntry(await graphqlError(post('application/json', persisted(2))), 'persistedQueryVersion');
    const badId = JSON.stringify({ documentId: 'abc' });
    expectEntry(await graphqlError(post('application/json', badId)), 'documentIdMalformed');
    const badHash = JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: 'abc' } } });
    expectEntry(await graphqlError(post('application/json', badHash)), 'persistedHashMalformed');
    const otherText = JSON.parse(persisted(1));
    const mismatch = JSON.stringify({ ...otherText, query: write });
    expectEntry(await graphqlError(post('application/json', mismatch)), 'persistedHashMismatch');
    const deep = JSON.parse(`${'['.repeat(MAX_VARIABLE_DEPTH + 1)}${']'.repeat(MAX_VARIABLE_DEPTH + 1)}`);
    const deepVariables = JSON.stringify({ query: write, variables: { deep } });
    expectEntry(await graphqlError(post('application/json', deepVariables)), 'nestedTooDeep', {
      field: 'variables',
    });
    const deepExtensions = JSON.stringify({ query: write, extensions: { deep } });
    expectEntry(await graphqlError(post('application/json', deepExtensions)), 'nestedTooDeep', {
      field: 'extensions',
    });
    expect(await app.counts()).toEqual(before);
  });

  it('refuses documents beyond the limits as their entries say', async () => {
    const deep =
      '{ categories { edges { node { pets { edges { node { category { pets { edges { node { id } } } } } } } } } } }';
    expectEntry(await graphqlError(app.graphql(deep)), 'queryTooComplex', {
      limit: `Query depth limit of ${MAX_DEPTH} exceeded, found ${MAX_DEPTH + 1}.`,
    });
    // The document's brackets may nest as deep as its selections and a variable's value, and two more.
    const maxNesting = MAX_DEPTH + MAX_VARIABLE_DEPTH + 2;
    const nested = `{ pets(ids: ${'['.repeat(maxNesting + 1)}${']'.repeat(maxNesting + 1)}) { edges { cursor } } }`;
    expectEntry(await graphqlError(app.graphql(nested)), 'documentTooDeep', { maxNesting });
  });

  it("refuses what a key's trusted-documents mode does not allow as the catalogue says, changing nothing", async () => {
    const before = await app.counts();
    const keyOf = async (trustedDocuments: 'off' | 'require') =>
      (await createApiKey(app.prisma, { plan: 'pro', scopes: SCOPES, trustedDocuments })).key;
    const [off, strict] = [await keyOf('off'), await keyOf('require')];
    const send = (key: string, body: object) => app.postGraphQL(body, { key });
    const documentId = `sha256:${'0'.repeat(64)}`;
    expectEntry(await graphqlError(send(off, { documentId })), 'trustedDocumentsOff');
    const persistedQuery = { version: 1, sha256Hash: '0'.repeat(64) };
    expectEntry(await graphqlError(send(off, { extensions: { persistedQuery } })), 'persistedQueriesOff');
    const write = 'mutation { createCategory(input: { name: "Untrusted" }) { id } }';
    expectEntry(await graphqlError(send(strict, { query: write })), 'registeredDocumentsOnly');
    expect(await app.counts()).toEqual(before);
  });

  it('refuses an operation over a per-field limit whole as the catalogue says, changing nothing', async () => {
    const pet = (await rest.post('/pets', { name: 'Limited', categoryId })).body;
    await rest.put(`/store/inventory/${pet.id}`, { quantity: 100 });
    const key = await createTestKey(app.prisma, 'pro');
    const before = await app.counts();
    const calls = PLACE_ORDER_PER_MINUTE + 1;
    const orders = Array.from(
      { length: calls },
      (_, i) => `o${i}: placeOrder(input: { petId: ${pet.id} }) { id }`,
    );
    const refused = app.graphql(`mutation { ${orders.join(' ')} }`, undefined, { key });
    expectEntry(await graphqlError(refused), 'fieldRateLimited', {
      field: 'placeOrder',
      limit: PLACE_ORDER_PER_MINUTE,
      seconds: 60,
      points: calls,
      left: PLACE_ORDER_PER_MINUTE,
      retryAfter: Number((await refused).headers.get('retry-after')),
    });
    expect(await app.counts()).toEqual(before);
  });

  it("refuses a subscription past the caller's cap as the catalogue says", async () => {
    const key = await createTestKey(served.prisma, 'free');
    const query = 'subscription { inventoryChanged { quantity } }';
    const open = await Promise.all(
      Array.from({ length: DEFAULT_MAX_SUBSCRIPTIONS.free }, () => subscribe(served.url, query, { key })),
    );
    try {
      expect(open.map((stream) => stream.response.status)).toEqual(open.map(() => 200));
      const refused = await subscribe(served.url, query, { key });
      await refused.ended;
      const [answer] = refused.next();
      expectEntry(
        {
          httpStatus: refused.response.status,
          error: { ...answer?.errors?.[0]?.extensions, message: answer?.errors?.[0]?.message },
        },
        'tooManySubscriptions',
        { plan: 'free', cap: DEFAULT_MAX_SUBSCRIPTIONS.free },
      );
    } finally {
      await Promise.all(open.map((stream) => stream.close()));
    }
  });

  it('answers paging arguments refused as their entries say, with HTTP 200', async () => {
    const fieldError = async (query: string) => {
      const answer = await graphqlError(app.graphql(query));
      expect(answer.httpStatus, query).toBe(200);
      return { ...answer, httpStatus: ERROR_STATUS.VALIDATION_FAILED };
    };
    expectEntry(await fieldError('{ pets(first: 500) { edges { cursor } } }'), 'pageSizeOutOfRange', {
      field: 'first',
      size: 500,
    });
    expectEntry(await fieldError('{ pets(first: 1, last: 1) { edges { cursor } } }'), 'firstWithLast');
    const ids = Array.from({ length: MAX_PAGE_SIZE + 1 }, (_, i) => i + 1).join(', ');
    expectEntry(await fieldError(`{ pets(ids: [${ids}]) { edges { cursor } } }`), 'tooManyIds', {
      count: MAX_PAGE_SIZE + 1,
    });
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
    const usage = await app.get('/usage', { key: null, headers: { accept: 'application/json' } });
    expectEntry(restAnswer(usage), 'usageNeedsKey');
  });
});

/** What the server writes on a connection that sends `bytes`, as its status and the Error object. */
async function rawAnswer(bytes: string, url = served.url) {
  const raw = await new Promise<string>((resolve, reject) => {
    const { port, hostname } = new URL(url);
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

  it('answers a Host or request target no URL can be built from as the catalogue says', async () => {
    const request = (target: string, hosts: string[]) =>
      rawAnswer(
        `GET ${target} HTTP/1.1\r\n${hosts.map((host) => `Host: ${host}\r\n`).join('')}Connection: close\r\n\r\n`,
      );
    expectEntry(await request('/pets', ['a', 'b']), 'hostRepeated', { count: 2 });
    expectEntry(await request('/pets', []), 'hostMissing');
    expectEntry(await request('/pets', ['example.com/pets']), 'hostInvalid', { host: 'example.com/pets' });
    expectEntry(await request('http://example.com/pets', ['x']), 'targetNotPath', {
      target: 'http://example.com/pets',
    });
    expectEntry(await request('/pets?q=%zz', ['x']), 'targetBadEscape');
  });
});

describe('custom domains', () => {
  const domainsFile = writeDomainsFile();
  afterAll(() => domainsFile.remove());
  const domains = useTestApp({ http: true, env: { DOMAINS_CONFIG: domainsFile.file } });

  it('refuses a Host that is not one of them as the catalogue says', async () => {
    const other = await getWithHost(new URL(domains.url).port, 'elsewhere.example.org', '/pets');
    expectEntry({ httpStatus: other.status, error: JSON.parse(other.body) }, 'hostNotServed', {
      host: 'elsewhere.example.org',
      primary: 'shop.example.com',
    });
    const noHost = await rawAnswer('GET /pets HTTP/1.0\r\n\r\n', domains.url);
    expectEntry(noHost, 'hostUnusable', { primary: 'shop.example.com' });
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
