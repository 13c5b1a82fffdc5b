import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Limits, Plan } from '../../src/contract/plans.ts';
import { createApiKey, revokeApiKey } from '../../src/keys/repository.ts';
import { type Gateway, startGateway } from './gateway.ts';
import { PrivateRedis } from './redis-server.ts';

const RATE_LIMIT_FIELDS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'ratelimit-policy',
  'ratelimit',
];

function rateLimitHeadersOf(response: Response) {
  return Object.fromEntries(RATE_LIMIT_FIELDS.map((name) => [name, response.headers.get(name)]));
}

const remainingOf = (response: Response) => Number(response.headers.get('x-ratelimit-remaining'));

async function newKey(gateway: Gateway, plan: Plan, limits?: Limits) {
  const { record, key } = await createApiKey(gateway.prisma, { plan, limits });
  return { id: record.id, headers: { 'x-api-key': key } };
}

describe('rate-limit plugin over HTTP', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startGateway({ API_KEY_CACHE_TTL_MS: '300', PLACE_ORDER_PER_MINUTE: '2' });
  });
  afterAll(() => gateway.close());

  it('admits the 60th request of a Free key across GraphQL and REST and refuses the 61st in the shape of each', async () => {
    const { headers } = await newKey(gateway, 'free');
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await gateway.rest('/pets', headers)).status);
    for (let i = 0; i < 10; i++)
      statuses.push((await gateway.graphql(['{ hello }', '{ hello }', '{ hello }'], headers)).status);
    for (let i = 0; i < 19; i++) statuses.push((await gateway.graphql('{ hello }', headers)).status);
    expect(statuses.every((s) => s === 200)).toBe(true); // 10 + 30 + 19 = 59 counted

    const sixtieth = await gateway.rest('/pets', headers);
    expect(sixtieth.status).toBe(200);
    expect(rateLimitHeadersOf(sixtieth)).toMatchObject({
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '0',
    });

    const restRefusal = await gateway.rest('/pets', headers);
    expect(restRefusal.status).toBe(429);
    expect(await restRefusal.json()).toEqual({
      code: 'RATE_LIMITED',
      status: 429,
      message: expect.stringMatching(/60 requests per minute/),
    });
    const retryAfter = Number(restRefusal.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(Date.now() / 1000 + retryAfter).toBeGreaterThanOrEqual(
      Number(restRefusal.headers.get('x-ratelimit-reset')) - 1,
    );

    const graphqlRefusal = await gateway.graphql('{ hello }', headers);
    expect(graphqlRefusal.status).toBe(429);
    expect(graphqlRefusal.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await graphqlRefusal.json()).toEqual({
      errors: [{ message: expect.any(String), extensions: { code: 'RATE_LIMITED', status: 429 } }],
    });
    expect(remainingOf(graphqlRefusal)).toBe(0);
  });

  it('puts the rate-limit fields on 200, 400, 404 and 429 responses, for the window with fewer requests left', async () => {
    const { headers } = await newKey(gateway, 'enterprise', { perMinute: 50, perDay: 4 });
    const ok = await gateway.graphql('{ hello }', headers);
    const invalid = await gateway.graphql('{ nope }', {
      ...headers,
      accept: 'application/graphql-response+json',
    });
    const missing = await gateway.rest('/no-such-path', headers);
    const fourth = await gateway.rest('/pets', headers);
    const refused = await gateway.rest('/pets', headers);

    expect([ok, invalid, missing, fourth, refused].map((r) => r.status)).toEqual([200, 400, 404, 200, 429]);
    expect([ok, invalid, missing, fourth, refused].map(remainingOf)).toEqual([3, 2, 1, 0, 0]);
    const resetAt = Number(ok.headers.get('x-ratelimit-reset'));
    expect(resetAt).toBeGreaterThan(Date.now() / 1000 + 86_000);
    expect(rateLimitHeadersOf(refused)).toEqual({
      'x-ratelimit-limit': '4',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(resetAt),
      'ratelimit-policy': '"minute";q=50;w=60, "day";q=4;w=86400',
      ratelimit: expect.stringMatching(/^"minute";r=46;t=\d+, "day";r=0;t=\d+$/),
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(86_000);
  });

  it('refuses a batch that does not fit as a whole, consuming none of it', async () => {
    const { headers } = await newKey(gateway, 'enterprise', { perMinute: 4, perDay: 100 });
    expect((await gateway.graphql(['{ hello }', '{ hello }'], headers)).status).toBe(200);
    const tooMany = await gateway.graphql(['{ hello }', '{ hello }', '{ hello }'], headers);
    expect(tooMany.status).toBe(429);
    expect(remainingOf(tooMany)).toBe(2);
    const fits = await gateway.graphql(['{ hello }', '{ hello }'], headers);
    expect(fits.status).toBe(200);
    expect(remainingOf(fits)).toBe(0);
  });

  it('answers an unknown, malformed or revoked key with 401 INVALID_API_KEY; revocation within the cache TTL', async () => {
    const unknown = { 'x-api-key': `psk_${'A'.repeat(43)}` };
    const graphqlRefusal = await gateway.graphql('{ hello }', unknown);
    expect(graphqlRefusal.status).toBe(401);
    expect(await graphqlRefusal.json()).toEqual({
      errors: [
        { message: expect.stringMatching(/X-API-Key/), extensions: { code: 'INVALID_API_KEY', status: 401 } },
      ],
    });
    const restRefusal = await gateway.rest('/pets', { 'x-api-key': 'not a key' });
    expect(restRefusal.status).toBe(401);
    expect(await restRefusal.json()).toMatchObject({ code: 'INVALID_API_KEY', status: 401 });

    const { id, headers } = await newKey(gateway, 'pro');
    expect((await gateway.rest('/pets', headers)).status).toBe(200);
    await revokeApiKey(gateway.prisma, id);
    await sleep(350);
    expect((await gateway.rest('/pets', headers)).status).toBe(401);
  });

  it('gives resolvers the caller and its own quota, and does not count the GraphiQL page', async () => {
    const { id, headers } = await newKey(gateway, 'pro');
    const first = await (
      await gateway.graphql('{ caller rateLimit { limit remaining resetAt } }', headers)
    ).json();
    expect(JSON.parse(first.data.caller)).toEqual({
      kind: 'key',
      keyId: Number(id),
      plan: 'pro',
      ip: '127.0.0.1',
    });
    expect(first.data.rateLimit).toMatchObject({ limit: 300, remaining: 299 });
    expect(Date.parse(first.data.rateLimit.resetAt)).toBeGreaterThan(Date.now());

    const page = await fetch(`${gateway.url}/graphql`, { headers: { ...headers, accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('x-ratelimit-remaining')).toBeNull();

    const second = await (await gateway.graphql('{ rateLimit { remaining } }', headers)).json();
    expect(second.data.rateLimit.remaining).toBe(298);
  });

  it('counts anonymous callers per client address, on the Free plan', async () => {
    const anonymous = await gateway.graphql('{ caller }');
    expect(JSON.parse((await anonymous.json()).data.caller)).toEqual({ kind: 'anonymous', ip: '127.0.0.1' });
    expect(anonymous.headers.get('x-ratelimit-limit')).toBe('60');
    // Without a trusted proxy, X-Forwarded-For is the client's own claim and changes nothing.
    const spoofed = await gateway.graphql('{ caller }', { 'x-forwarded-for': '203.0.113.9' });
    expect(JSON.parse((await spoofed.json()).data.caller).ip).toBe('127.0.0.1');
    expect(remainingOf(spoofed)).toBe(remainingOf(anonymous) - 1);
  });

  it('limits placeOrder per key per minute, with Retry-After, without counting refused calls', async () => {
    const { headers } = await newKey(gateway, 'business');
    const place = () => gateway.graphql('mutation { placeOrder(quantity: 1) }', headers);
    expect((await (await place()).json()).data).toEqual({ placeOrder: 1 });
    expect((await (await place()).json()).data).toEqual({ placeOrder: 1 });
    for (let i = 0; i < 2; i++) {
      const refused = await place();
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
      expect((await refused.json()).errors).toEqual([
        expect.objectContaining({
          message: expect.stringMatching(/placeOrder is limited to 2 calls/),
          extensions: { code: 'RATE_LIMITED', status: 429 },
        }),
      ]);
    }
    const other = await newKey(gateway, 'business');
    expect(
      (await (await gateway.graphql('mutation { placeOrder(quantity: 3) }', other.headers)).json()).data,
    ).toEqual({ placeOrder: 3 });
  });
});

describe('rate-limit plugin behind a trusted proxy, with short windows and a low ban threshold', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startGateway({
      TRUST_PROXY: '1',
      RATE_LIMIT_PLANS: '{"free":{"perMinute":2}}',
      RATE_LIMIT_MINUTE_SECONDS: '1',
      RATE_LIMIT_BAN_AFTER: '2',
      RATE_LIMIT_BAN_SECONDS: '3',
    });
  });
  afterAll(() => gateway.close());

  it('counts each forwarded client address apart, using the address the proxy saw', async () => {
    const client = (ip: string) => ({ 'x-forwarded-for': `198.51.100.1, ${ip}` });
    const caller = await (await gateway.graphql('{ caller }', client('192.0.2.1'))).json();
    expect(JSON.parse(caller.data.caller).ip).toBe('192.0.2.1');
    expect((await gateway.rest('/pets', client('192.0.2.1'))).status).toBe(200);
    expect((await gateway.rest('/pets', client('192.0.2.1'))).status).toBe(429);
    expect((await gateway.rest('/pets', client('192.0.2.2'))).status).toBe(200);
  });

  it('admits a refused client again once it has waited Retry-After', async () => {
    const client = { 'x-forwarded-for': '192.0.2.10' };
    await gateway.rest('/pets', client);
    await gateway.rest('/pets', client);
    const refused = await gateway.rest('/pets', client);
    expect(refused.status).toBe(429);
    await sleep(Number(refused.headers.get('retry-after')) * 1000);
    expect((await gateway.rest('/pets', client)).status).toBe(200);
  });

  it('bans a client that goes on sending while refused, with Retry-After to the end of the ban', async () => {
    const client = { 'x-forwarded-for': '192.0.2.20' };
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await gateway.rest('/pets', client)).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
    const banned = await gateway.graphql('{ hello }', client);
    expect(banned.status).toBe(429);
    expect(banned.headers.get('retry-after')).toBe('3');
    expect((await banned.json()).errors[0].extensions).toEqual({ code: 'KEY_BANNED', status: 429 });
    expect((await gateway.rest('/pets', { 'x-forwarded-for': '192.0.2.21' })).status).toBe(200);

    await sleep(1100); // the minute window is over, the ban is not
    const stillBanned = await gateway.rest('/pets', client);
    expect(await stillBanned.json()).toMatchObject({ code: 'KEY_BANNED', status: 429 });
    await sleep(Number(stillBanned.headers.get('retry-after')) * 1000);
    expect((await gateway.rest('/pets', client)).status).toBe(200);
  });
});

describe('rate-limit plugin failing closed while Redis is down', () => {
  let redis: PrivateRedis;
  let gateway: Gateway;
  beforeAll(async () => {
    redis = await PrivateRedis.start();
    gateway = await startGateway({ REDIS_URL: redis.url, RATE_LIMIT_ON_REDIS_FAILURE: 'closed' });
  });
  afterAll(async () => {
    await gateway.close();
    await redis.stop();
  });

  it('answers 503 UNAVAILABLE in the shape of each API, and serves again once Redis is back', async () => {
    expect((await gateway.rest('/pets')).status).toBe(200);
    await redis.stop();
    await expect.poll(() => gateway.counters.status()).toMatchObject({ connected: false });

    const rest = await gateway.rest('/pets');
    expect(rest.status).toBe(503);
    expect(await rest.json()).toMatchObject({ code: 'UNAVAILABLE', status: 503 });
    const graphql = await gateway.graphql('{ hello }');
    expect(graphql.status).toBe(503);
    expect((await graphql.json()).errors[0].extensions).toEqual({ code: 'UNAVAILABLE', status: 503 });

    await redis.resume();
    await expect
      .poll(() => gateway.counters.status(), { timeout: 10_000 })
      .toMatchObject({ connected: true });
    expect((await gateway.rest('/pets')).status).toBe(200);
  });
});
