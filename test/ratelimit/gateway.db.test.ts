import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/contract/scopes.ts';
import { createApiKey } from '../../src/keys/repository.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { type GatewayProcess, startGatewayProcess } from '../support/gateway-process.ts';
import { overHttp, requestHelpers } from '../support/requests.ts';
import { REDIS_KEY_PREFIX, REDIS_URL } from './stores.ts';

const PLACE_ORDER_LIMIT = 10;

/** `count` aliased placeOrder fields, one unit of `petId` each. */
const orders = (petId: number, count: number) =>
  `mutation { ${Array.from({ length: count }, (_, i) => `o${i}: placeOrder(input: { petId: ${petId} }) { id }`).join(' ')} }`;

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
      PLACE_ORDER_PER_MINUTE: String(PLACE_ORDER_LIMIT),
    };
    gateways = await Promise.all([startGatewayProcess(env), startGatewayProcess(env)]);
  });
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.cleanUp()));
    await database?.drop();
  });

  /** The i-th request goes to one gateway or the other, in turn. */
  const via = (i: number, key: string) =>
    requestHelpers(overHttp((gateways[i % 2] as GatewayProcess).url), key);
  const send = (i: number, key: string, path: string, body?: unknown) =>
    via(i, key).send(body === undefined ? 'GET' : 'POST', path, { body });

  async function petInStock(key: string, quantity: number): Promise<number> {
    const category = (await send(0, key, '/categories', { name: 'Stocked' })).body;
    const pet = (await send(0, key, '/pets', { name: 'In stock', categoryId: category.id })).body;
    const stock = await via(0, key).send('PUT', `/store/inventory/${pet.id}`, { body: { quantity } });
    expect(stock.status).toBe(200);
    return pet.id;
  }

  it.each([
    {
      name: 'exactly 60 of 90 concurrent requests of one Free key',
      plan: 'free' as const,
      send: (i: number, key: string) =>
        i % 3
          ? send(i, key, '/pets?limit=1')
          : send(i, key, '/graphql', { query: '{ categories(first: 1) { edges { node { id } } } }' }),
      requests: 90,
      statuses: { 200: 60, 429: 30 },
      orders: 0,
      limit: 60,
    },
    {
      name: 'exactly 3 of 8 concurrent operations of 3 aliased placeOrder, the others refused whole',
      plan: 'business' as const,
      send: (i: number, key: string, petId: number) => send(i, key, '/graphql', { query: orders(petId, 3) }),
      requests: 8,
      statuses: { 200: 3, 429: 5 },
      orders: 9,
      limit: 1000,
    },
    {
      name: 'exactly 10 of 15 concurrent REST orders',
      plan: 'business' as const,
      send: (i: number, key: string, petId: number) => send(i, key, '/store/orders', { petId }),
      requests: 15,
      statuses: { 201: 10, 429: 5 },
      orders: 10,
      limit: 1000,
    },
  ])('admit $name', async ({ plan, send: request, requests, statuses, orders: placed, limit }) => {
    const { key } = await createApiKey(database.db.prisma, { plan, scopes: SCOPES });
    const setUp =
      placed > 0 ? await createApiKey(database.db.prisma, { plan: 'business', scopes: SCOPES }) : { key };
    const petId = placed > 0 ? await petInStock(setUp.key, 100) : 0;
    const responses = await Promise.all(Array.from({ length: requests }, (_, i) => request(i, key, petId)));
    const counted: Record<number, number> = {};
    for (const { status } of responses) counted[status] = (counted[status] ?? 0) + 1;
    expect(counted).toEqual(statuses);
    for (const response of responses) {
      expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
      expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeLessThanOrEqual(limit);
    }
    if (placed > 0) {
      expect(await database.db.prisma.order.count({ where: { petId: BigInt(petId) } })).toBe(placed);
      const stock = await database.db.prisma.inventoryItem.findUniqueOrThrow({
        where: { petId: BigInt(petId) },
      });
      expect(stock.quantity).toBe(100 - placed);
    }
  });

  it('answer a batch with one admitted and one refused entry 200, whichever gateway counts', async () => {
    const { key } = await createApiKey(database.db.prisma, { plan: 'business', scopes: SCOPES });
    const petId = await petInStock(key, 100);
    const batch = await send(1, key, '/graphql', [{ query: orders(petId, 3) }, { query: orders(petId, 8) }]);
    expect(batch.status).toBe(200);
    const [admitted, refused] = batch.body;
    expect(Object.keys(admitted.data)).toEqual(['o0', 'o1', 'o2']);
    expect(refused.errors[0].extensions).toEqual({ code: 'RATE_LIMITED', status: 429 });
    const refusedWhole = await send(0, key, '/graphql', { query: orders(petId, 8) });
    expect(refusedWhole.status).toBe(429);
    expect(await database.db.prisma.order.count({ where: { petId: BigInt(petId) } })).toBe(3);
  });
});
