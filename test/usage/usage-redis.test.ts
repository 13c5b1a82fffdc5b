import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsageCounter } from '../../src/usage/counts.ts';
import { redisUsageStore } from '../../src/usage/redis-store.ts';
import { REDIS_URL } from '../ratelimit/stores.ts';
import { useTestApp } from '../support/app.ts';
import { createTestKey } from '../support/keys.ts';

// With REDIS_URL the usage counts live in Redis, where every gateway instance adds them; the database holds none.
const prefix = `test-usage-${randomUUID()}`;
const app = useTestApp({
  env: { REDIS_URL, RATE_LIMIT_REDIS_PREFIX: prefix, RATE_LIMIT_ON_REDIS_FAILURE: 'closed' },
});
let redis: Redis;
beforeAll(() => {
  redis = new Redis(REDIS_URL);
});
// Before the app closes (the hooks after the tests run last registered first).
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

describe('usage counts on Redis', () => {
  it("shares a key's counts between instances, in buckets that expire by themselves", async () => {
    const key = await createTestKey(app.prisma, 'enterprise', { perMinute: 2, perDay: 100 });
    const id = (await app.prisma.apiKey.findFirstOrThrow({ orderBy: { id: 'desc' } })).id;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await app.get('/pets?limit=1', { key })).status);
    }
    expect(statuses).toEqual([200, 200, 429]);

    // Another instance, on another database, adds its counts for the same key to the same Redis.
    const elsewhere = createUsageCounter(
      redisUsageStore({ url: REDIS_URL, keyPrefix: prefix, commandTimeoutMs: 500 }),
    );
    elsewhere.record({ keyId: id, status: 500, api: 'graphql', operation: 'Other' });
    await elsewhere.close();

    const { body } = await app.get('/usage', { key, headers: { accept: 'application/json' } });
    const total = (points: { requests: number; serverErrors: number; refused: { minute?: number } }[]) =>
      points.reduce(
        (sum, p) => ({
          requests: sum.requests + p.requests,
          serverErrors: sum.serverErrors + p.serverErrors,
          refused: sum.refused + (p.refused.minute ?? 0),
        }),
        { requests: 0, serverErrors: 0, refused: 0 },
      );
    expect(total(body.minutes)).toEqual({ requests: 4, serverErrors: 1, refused: 1 });
    expect(total(body.hours)).toEqual({ requests: 4, serverErrors: 1, refused: 1 });
    expect(body.topOperations).toEqual([
      { api: 'rest', operation: 'listPets', requests: 3 },
      { api: 'graphql', operation: 'Other', requests: 1 },
    ]);
    expect(await app.prisma.usageCount.count()).toBe(0);
    // Open subscriptions are read from the leases in Redis.
    expect(body.subscriptions).toEqual({ open: 0, max: expect.any(Number) });

    const buckets = await redis.keys(`${prefix}:usage:${id}:*`);
    expect(buckets.length).toBeGreaterThanOrEqual(2);
    for (const bucket of buckets) {
      const ttl = await redis.pttl(bucket);
      expect(ttl, bucket).toBeGreaterThan(0);
      expect(ttl, bucket).toBeLessThanOrEqual((bucket.includes(':minute:') ? 61 * 60 : 169 * 3600) * 1000);
    }
  });
});
