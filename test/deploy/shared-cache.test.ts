import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/keys/repository.ts';
import { send } from '../support/node-http.ts';
import { startTestCluster, type TestCluster } from './cluster.ts';

// Public reads may be reused for this long: short, so that the staleness test sees the answer expire.
const MAX_AGE_SECONDS = 2;

describe("HAProxy's shared cache in front of three gateways", () => {
  let test: TestCluster;
  let key: string;
  let otherKey: string;
  beforeAll(async () => {
    test = await startTestCluster({ HTTP_CACHE_MAX_AGE: String(MAX_AGE_SECONDS) });
    const prisma = test.database.db.prisma;
    key = (await createApiKey(prisma, { plan: 'business', scopes: ['read', 'orders', 'catalog'] })).key;
    otherKey = (await createApiKey(prisma, { plan: 'business' })).key;
  });
  afterAll(() => test?.stop());

  it('serves an anonymous public read again from the cache: the second answer never reached a gateway', async () => {
    const url = test.cluster.url;
    const first = await send(url, '/categories?limit=3');
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe(`public, max-age=${MAX_AGE_SECONDS}`);
    const before = await test.cluster.serverStats();
    const again = await send(url, '/categories?limit=3');
    expect(again.status).toBe(200);
    // The gateway's X-Request-Id of the first answer: no gateway saw this request.
    expect(again.requestId).toBe(first.requestId);
    expect(again.body).toEqual(first.body);
    const after = await test.cluster.serverStats();
    const answered = (stats: typeof before) =>
      stats.reduce((sum, { responses }) => sum + responses['2xx'] + responses['4xx'], 0);
    expect(answered(after)).toBe(answered(before));
  });

  it('never serves a keyed or caller-dependent answer to another caller', async () => {
    const url = test.cluster.url;
    // A keyed read is neither served from the cache nor stored in it.
    const keyed = await send(url, '/categories?limit=4', { key });
    const keyedAgain = await send(url, '/categories?limit=4', { key });
    expect(keyedAgain.requestId).not.toBe(keyed.requestId);
    const anonymous = await send(url, '/categories?limit=4');
    expect([keyed.requestId, keyedAgain.requestId]).not.toContain(anonymous.requestId);
    // A key's own orders, then the same path by another key and by nobody.
    const category = await send(url, '/categories', { method: 'POST', key, body: { name: 'Dogs' } });
    const pet = await send(url, '/pets', {
      method: 'POST',
      key,
      body: { name: 'Rex', categoryId: category.body.id },
    });
    expect(pet.status).toBe(201);
    await send(url, `/store/inventory/${pet.body.id}`, { method: 'PUT', key, body: { quantity: 3 } });
    const order = await send(url, '/store/orders', { method: 'POST', key, body: { petId: pet.body.id } });
    expect(order.status).toBe(201);
    const mine = await send(url, '/store/orders');
    expect(mine.body).toEqual([]);
    const own = await send(url, '/store/orders', { key });
    expect(own.body.map((o: { id: number }) => o.id)).toEqual([order.body.id]);
    expect(own.headers['cache-control']).toBe('private, no-cache');
    for (const caller of [undefined, otherKey]) {
      const answer = await send(url, '/store/orders', { key: caller });
      expect(answer.requestId).not.toBe(own.requestId);
      expect(answer.body).toEqual([]);
    }
  });

  it('after a write, a cached answer is stale for at most the max-age it carried', async () => {
    const url = test.cluster.url;
    const cached = await send(url, '/categories?limit=100');
    expect((await send(url, '/categories?limit=100')).requestId).toBe(cached.requestId);
    const created = await send(url, '/categories', { method: 'POST', key, body: { name: 'Written now' } });
    expect(created.status).toBe(201);
    // Until the stored answer expires, it is served as it was, never older than its max-age.
    for (;;) {
      const answer = await send(url, '/categories?limit=100');
      const names = answer.body.map((category: { name: string }) => category.name);
      if (names.includes('Written now')) break;
      expect(answer.requestId).toBe(cached.requestId);
      expect(Number(answer.headers.age ?? 0)).toBeLessThanOrEqual(MAX_AGE_SECONDS);
    }
  });
});
