import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/keys/repository.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { type GatewayProcess, startGatewayProcess } from '../support/gateway-process.ts';
import { REDIS_KEY_PREFIX, REDIS_URL } from './stores.ts';

const remainingOf = (response: Response) => response.headers.get('x-ratelimit-remaining');

describe('the rate-limit layer in the whole gateway', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { PLACE_ORDER_PER_MINUTE: '1' } });
  });
  afterAll(() => app.close());

  const rest = (path: string, key: string, init: RequestInit = {}) =>
    fetch(`${app.url}${path}`, {
      ...init,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
    });
  const graphql = (query: string, key: string) =>
    fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });

  it('admits the 60th request of a Free key across GraphQL and REST and refuses the 61st', async () => {
    const { key } = await createApiKey(app.prisma, { plan: 'free' });
    const statuses: number[] = [];
    for (let i = 0; i < 59; i++) {
      const response =
        i % 2
          ? await rest('/pets?limit=1', key)
          : await graphql('{ pets(first: 1) { edges { node { id } } } }', key);
      statuses.push(response.status);
    }
    expect(statuses.every((status) => status === 200)).toBe(true);
    const sixtieth = await graphql('{ categories(first: 1) { edges { node { id } } } }', key);
    expect([sixtieth.status, remainingOf(sixtieth)]).toEqual([200, '0']);

    const refusedRest = await rest('/pets?limit=1', key);
    expect(refusedRest.status).toBe(429);
    expect(await refusedRest.json()).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(Number(refusedRest.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const refusedGraphQL = await graphql('{ pets(first: 1) { edges { node { id } } } }', key);
    expect(refusedGraphQL.status).toBe(429);
    expect((await refusedGraphQL.json()).errors[0].extensions).toEqual({ code: 'RATE_LIMITED', status: 429 });
  });

  it('puts the rate-limit headers on 200, 400, 404 and 429 responses', async () => {
    const { key } = await createApiKey(app.prisma, {
      plan: 'enterprise',
      limits: { perMinute: 100, perDay: 3 },
    });
    const responses = [
      await rest('/pets?limit=1', key),
      await rest('/pets', key, { method: 'POST', body: JSON.stringify({ name: 'No category' }) }),
      await rest('/pets/999999999', key),
      await rest('/pets?limit=1', key),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 400, 404, 429]);
    expect(responses.map(remainingOf)).toEqual(['2', '1', '0', '0']);
    for (const response of responses) {
      expect(response.headers.get('x-ratelimit-limit')).toBe('3');
      expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 + 86_000);
      expect(response.headers.get('ratelimit-policy')).toBe('"minute";q=100;w=60, "day";q=3;w=86400');
    }
    // The daily window binds: Retry-After points at its reset, a day away.
    expect(Number(responses[3]?.headers.get('retry-after'))).toBeGreaterThan(86_000);
  });

  it('lets a GraphQL client read its own quota', async () => {
    const { key } = await createApiKey(app.prisma, { plan: 'pro' });
    const { data } = await (await graphql('{ rateLimit { limit remaining resetAt } }', key)).json();
    expect(data.rateLimit).toMatchObject({ limit: 300, remaining: 299 });
    expect(Date.parse(data.rateLimit.resetAt)).toBeGreaterThan(Date.now());
  });

  it('limits placing orders per key, over REST and GraphQL alike, and a refused order takes no stock', async () => {
    const { key } = await createApiKey(app.prisma, { plan: 'business' });
    const post = (path: string, body: unknown) =>
      rest(path, key, { method: 'POST', body: JSON.stringify(body) });
    const category = await (await post('/categories', { name: 'Birds' })).json();
    const pet = await (await post('/pets', { name: 'Tweety', categoryId: category.id })).json();
    await rest(`/store/inventory/${pet.id}`, key, { method: 'PUT', body: JSON.stringify({ quantity: 5 }) });

    expect((await post('/store/orders', { petId: pet.id, quantity: 1 })).status).toBe(201);
    const refused = await post('/store/orders', { petId: pet.id, quantity: 1 });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    const viaGraphQL = await graphql(`mutation { placeOrder(input: { petId: ${pet.id} }) { id } }`, key);
    expect((await viaGraphQL.json()).errors[0].extensions).toEqual({ code: 'RATE_LIMITED', status: 429 });
    expect(await (await rest(`/store/inventory/${pet.id}`, key)).json()).toMatchObject({ quantity: 4 });
  });
});

describe('two gateway processes on one database and one Redis', () => {
  let database: TestDatabase;
  let gateways: GatewayProcess[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      RATE_LIMIT_REDIS_PREFIX: REDIS_KEY_PREFIX,
      SEED_DEMO_DATA: 'false',
    };
    gateways = await Promise.all([startGatewayProcess(env), startGatewayProcess(env)]);
  });
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.cleanUp()));
    await database.drop();
  });

  it('admit exactly 60 of 90 concurrent requests of one Free key', async () => {
    const { key } = await createApiKey(database.db.prisma, { plan: 'free' });
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    const responses = await Promise.all(
      Array.from({ length: 90 }, (_, i) => {
        const url = gateways[i % 2]?.url;
        return i % 3
          ? fetch(`${url}/pets?limit=1`, { headers })
          : fetch(`${url}/graphql`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ query: '{ categories(first: 1) { edges { node { id } } } }' }),
            });
      }),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
  });
});
