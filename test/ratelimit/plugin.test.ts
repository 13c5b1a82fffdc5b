import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '../../src/keys/repository.ts';
import { type Answer, startTestApp, type TestApp, useTestApp } from '../support/app.ts';
import { createTestKey } from '../support/keys.ts';
import { PrivateRedis } from './redis-server.ts';

// The rate-limit layer in the whole gateway (test/support/app.ts): its headers and statuses are what is tested.

const RATE_LIMIT_FIELDS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'ratelimit-policy',
  'ratelimit',
];
const rateLimitFieldsOf = (response: Answer) =>
  Object.fromEntries(RATE_LIMIT_FIELDS.map((name) => [name, response.headers.get(name)]));
const remainingOf = (response: Answer) => Number(response.headers.get('x-ratelimit-remaining'));

const READ = '{ categories(first: 1) { edges { node { id } } } }';

/** The app's helpers as these tests call them: without a key unless given. */
const clientOf = (app: TestApp) => ({
  /** One operation, or a batch when given an array. */
  graphql: (operations: string | string[], key?: string, headers?: Record<string, string>) =>
    app.postGraphQL(
      Array.isArray(operations) ? operations.map((query) => ({ query })) : { query: operations },
      {
        key: key ?? null,
        headers,
      },
    ),
  rest: (
    path: string,
    key?: string,
    init: { method?: string; body?: unknown; extra?: Record<string, string> } = {},
  ) => app.send(init.method ?? 'GET', path, { body: init.body, key: key ?? null, headers: init.extra }),
});

describe('the rate-limit layer in the whole gateway', () => {
  // No key cache, so that a revocation shows at once.
  const app = useTestApp({ env: { PLACE_ORDER_PER_MINUTE: '2', API_KEY_CACHE_TTL_MS: '0' } });
  const client = clientOf(app);

  it.each([
    {
      shape: 'REST',
      refuse: (key: string) => client.rest('/pets?limit=1', key),
      body: { code: 'RATE_LIMITED', status: 429, message: expect.stringMatching(/60 requests per minute/) },
      remaining: 0,
    },
    {
      shape: 'GraphQL',
      refuse: (key: string) => client.graphql(READ, key),
      body: {
        errors: [
          {
            message: expect.stringMatching(/60 requests per minute/),
            extensions: { code: 'RATE_LIMITED', status: 429 },
          },
        ],
      },
      remaining: 0,
    },
    {
      // One short of the limit, a batch of two does not fit, and takes nothing.
      shape: 'a batch',
      spent: 59,
      refuse: (key: string) => client.graphql([READ, READ], key),
      body: { errors: [{ message: expect.any(String), extensions: { code: 'RATE_LIMITED', status: 429 } }] },
      remaining: 1,
    },
  ])(
    'admits a Free key up to 60 requests over GraphQL and REST, then refuses $shape in its own shape',
    async ({ refuse, body, remaining, spent = 60 }) => {
      const key = await createTestKey(app.prisma, 'free');
      const statuses: number[] = [];
      // 9 batches of 3, then single GraphQL operations and REST requests in turn.
      for (let i = 0; i < 9; i++) statuses.push((await client.graphql([READ, READ, READ], key)).status);
      for (let i = 27; i < spent - 1; i++)
        statuses.push((await (i % 2 ? client.rest('/pets?limit=1', key) : client.graphql(READ, key))).status);
      const last = await client.rest('/pets?limit=1', key);
      expect(statuses.every((status) => status === 200)).toBe(true);
      expect([last.status, remainingOf(last)]).toEqual([200, 60 - spent]);

      const refused = await refuse(key);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual(body);
      expect(remainingOf(refused)).toBe(remaining);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(Date.now() / 1000 + retryAfter).toBeGreaterThanOrEqual(
        Number(refused.headers.get('x-ratelimit-reset')) - 1,
      );
    },
  );

  it('puts the rate-limit fields on 200, 400, 404 and 429 responses, for the window with fewer requests left', async () => {
    const key = await createTestKey(app.prisma, 'enterprise', { perMinute: 50, perDay: 4 });
    const responses = [
      await client.graphql(READ, key),
      await client.graphql('{ nope }', key, { accept: 'application/graphql-response+json' }),
      await client.rest('/pets/999999999', key),
      await client.rest('/pets?limit=1', key),
      await client.rest('/pets?limit=1', key),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 400, 404, 200, 429]);
    expect(responses.map(remainingOf)).toEqual([3, 2, 1, 0, 0]);
    const resetAt = Number(responses[0]?.headers.get('x-ratelimit-reset'));
    expect(resetAt).toBeGreaterThan(Date.now() / 1000 + 86_000);
    const refused = responses[4] as Answer;
    expect(rateLimitFieldsOf(refused)).toEqual({
      'x-ratelimit-limit': '4',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(resetAt),
      'ratelimit-policy': '"minute";q=50;w=60, "day";q=4;w=86400',
      ratelimit: expect.stringMatching(/^"minute";r=46;t=\d+, "day";r=0;t=\d+$/),
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(86_000);
  });

  it.each([
    {
      api: 'GraphQL',
      place: (key: string, petId: number) =>
        client.graphql(`mutation { placeOrder(input: { petId: ${petId} }) { id } }`, key),
      placed: 200,
      refusal: (response: Answer) => response.body.errors,
      refusalBody: [
        {
          message: expect.stringMatching(/placeOrder is limited to 2 calls/),
          extensions: { code: 'RATE_LIMITED', status: 429 },
        },
      ],
    },
    {
      api: 'REST',
      place: (key: string, petId: number) =>
        client.rest('/store/orders', key, { method: 'POST', body: { petId } }),
      placed: 201,
      refusal: (response: Answer) => response.body,
      refusalBody: {
        code: 'RATE_LIMITED',
        status: 429,
        message: expect.stringMatching(/placeOrder is limited to 2 calls/),
      },
    },
  ])(
    'limits placeOrder per key per minute over $api: 429 with Retry-After, no stock taken, the point given back',
    async ({ place, placed, refusal, refusalBody }) => {
      const key = await createTestKey(app.prisma, 'business');
      const pet = await app.createPet({ name: 'Limited' });
      await app.ok(`mutation { updateInventory(petId: ${pet.id}, input: { quantity: 5 }) { quantity } }`);
      expect([(await place(key, pet.id)).status, (await place(key, pet.id)).status]).toEqual([
        placed,
        placed,
      ]);
      const before = await client.rest('/pets?limit=1', key);
      for (let i = 0; i < 2; i++) {
        const refused = await place(key, pet.id);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
        expect(await refusal(refused)).toEqual(refusalBody);
        // The refused request consumed nothing.
        expect(remainingOf(refused)).toBe(remainingOf(before));
      }
      expect((await app.ok(`{ inventoryItem(petId: ${pet.id}) { quantity } }`)).inventoryItem.quantity).toBe(
        3,
      );
      // Another caller has a limit of its own.
      const other = await createTestKey(app.prisma, 'business');
      expect((await place(other, pet.id)).status).toBe(placed);
    },
  );

  it('answers an unknown, malformed or revoked key with 401 INVALID_API_KEY, counted against the address', async () => {
    const unknown = await client.graphql(READ, `psk_${'A'.repeat(43)}`);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({
      errors: [
        { message: expect.stringMatching(/X-API-Key/), extensions: { code: 'INVALID_API_KEY', status: 401 } },
      ],
    });
    expect(unknown.headers.get('x-ratelimit-limit')).toBe('60');
    const malformed = await client.rest('/pets', 'not a key');
    expect(malformed.status).toBe(401);
    expect(malformed.body).toMatchObject({ code: 'INVALID_API_KEY', status: 401 });
    expect(remainingOf(malformed)).toBe(remainingOf(unknown) - 1);

    const { record, key } = await createApiKey(app.prisma, { plan: 'pro' });
    expect((await client.rest('/pets', key)).status).toBe(200);
    await revokeApiKey(app.prisma, record.id);
    expect((await client.rest('/pets', key)).status).toBe(401);
  });

  it("gives GraphQL the caller's own quota, and does not count the GraphiQL page", async () => {
    const key = await createTestKey(app.prisma, 'pro');
    const first = (await client.graphql('{ rateLimit { limit remaining resetAt } }', key)).body;
    expect(first.data.rateLimit).toMatchObject({ limit: 300, remaining: 299 });
    expect(Date.parse(first.data.rateLimit.resetAt)).toBeGreaterThan(Date.now());

    const page = await app.get('/graphql', { key, headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('x-ratelimit-remaining')).toBeNull();

    const second = (await client.graphql('{ rateLimit { remaining } }', key)).body;
    expect(second.data.rateLimit.remaining).toBe(298);
  });

  it('counts anonymous callers per client address on the Free plan; X-Forwarded-For is not trusted by default', async () => {
    const anonymous = await client.graphql('{ rateLimit { limit } }');
    expect(anonymous.body.data.rateLimit.limit).toBe(60);
    const spoofed = await client.graphql('{ rateLimit { limit } }', undefined, {
      'x-forwarded-for': '203.0.113.9',
    });
    expect(remainingOf(spoofed)).toBe(remainingOf(anonymous) - 1);
  });
});

describe('the rate-limit layer behind a trusted proxy, with a low ban threshold', () => {
  const app = useTestApp({
    env: {
      TRUST_PROXY: '1',
      RATE_LIMIT_PLANS: '{"free":{"perMinute":2}}',
      RATE_LIMIT_BAN_AFTER: '2',
      RATE_LIMIT_BAN_SECONDS: '300',
    },
  });
  const client = clientOf(app);

  const from = (ip: string) => ({ extra: { 'x-forwarded-for': `198.51.100.1, ${ip}` } });

  it('counts each forwarded client address apart, using the address the proxy saw', async () => {
    expect((await client.rest('/pets', undefined, from('192.0.2.1'))).status).toBe(200);
    expect((await client.rest('/pets', undefined, from('192.0.2.1'))).status).toBe(200);
    expect((await client.rest('/pets', undefined, from('192.0.2.1'))).status).toBe(429);
    expect((await client.rest('/pets', undefined, from('192.0.2.2'))).status).toBe(200);
  });

  it('bans a client that goes on sending while refused, with Retry-After to the end of the ban', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await client.rest('/pets', undefined, from('192.0.2.20'))).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
    const banned = await client.graphql(READ, undefined, { 'x-forwarded-for': '192.0.2.20' });
    expect(banned.status).toBe(429);
    expect(banned.headers.get('retry-after')).toBe('300');
    expect(remainingOf(banned)).toBe(0);
    expect(banned.body.errors[0].extensions).toEqual({ code: 'KEY_BANNED', status: 429 });
    const rest = await client.rest('/pets', undefined, from('192.0.2.20'));
    expect(rest.body).toMatchObject({ code: 'KEY_BANNED', status: 429 });
    expect((await client.rest('/pets', undefined, from('192.0.2.21'))).status).toBe(200);
  });
});

describe('the rate-limit layer failing closed while Redis is down', () => {
  let redis: PrivateRedis;
  let app: TestApp;
  let client: ReturnType<typeof clientOf>;
  beforeAll(async () => {
    redis = await PrivateRedis.start();
    app = await startTestApp({ env: { REDIS_URL: redis.url, RATE_LIMIT_ON_REDIS_FAILURE: 'closed' } });
    client = clientOf(app);
  });
  afterAll(async () => {
    await app?.close();
    await redis?.stop();
  });

  it('answers 503 UNAVAILABLE in the shape of each API, and serves again once Redis is back', async () => {
    expect((await client.rest('/pets')).status).toBe(200);
    await redis.stop();
    await expect.poll(async () => (await client.rest('/pets')).status).toBe(503);

    const rest = await client.rest('/pets');
    expect(rest.body).toMatchObject({ code: 'UNAVAILABLE', status: 503 });
    const graphql = await client.graphql(READ);
    expect(graphql.status).toBe(503);
    expect(graphql.body.errors[0].extensions).toEqual({ code: 'UNAVAILABLE', status: 503 });

    await redis.resume();
    await expect.poll(async () => (await client.rest('/pets')).status, { timeout: 10_000 }).toBe(200);
  });
});
