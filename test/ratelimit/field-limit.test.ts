import type { GraphQLResolveInfo } from 'graphql';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CounterStore } from '../../src/ratelimit/counters.ts';
import { createFieldLimiter } from '../../src/ratelimit/field-limit.ts';
import { freshSubject, openStore, REDIS_KEY_PREFIX, REDIS_URL, type StoreKind } from './stores.ts';

// graphql-rate-limit's core reads only the field name from `info`.
const placeOrder = { fieldName: 'placeOrder' } as GraphQLResolveInfo;
const config = { fieldLimits: { placeOrder: 3 }, minuteSeconds: 60 };

describe.each<StoreKind>(['memory', 'redis'])('per-field limit on %s', (kind) => {
  let stores: CounterStore[];
  beforeAll(async () => {
    stores = await Promise.all([openStore(kind), openStore(kind)]);
  });
  afterAll(() => Promise.all(stores.map((s) => s.close())));

  it('allows exactly the maximum of many concurrent calls and does not count the refused ones', async () => {
    // On Redis, two stores stand for two gateway processes sharing the quota.
    const limiters =
      kind === 'redis'
        ? stores.map((s) => createFieldLimiter(s, config))
        : [createFieldLimiter(stores[0] as CounterStore, config)];
    const subject = freshSubject();
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        limiters[i % limiters.length]?.(subject, placeOrder, { input: { quantity: 1 } }),
      ),
    );
    expect(verdicts.filter((v) => v === undefined)).toHaveLength(3);
    expect(verdicts.find((v) => v !== undefined)).toEqual({
      message: 'placeOrder is limited to 3 calls per 60 s per caller; retry in 60 s',
      retryAfterSeconds: 60,
    });
    expect(await limiters[0]?.(freshSubject(), placeOrder, {})).toBeUndefined();

    if (kind === 'redis') {
      const redis = new Redis(REDIS_URL);
      try {
        expect(await redis.get(`${REDIS_KEY_PREFIX}:field:${subject}:placeOrder`)).toBe('3');
      } finally {
        redis.disconnect();
      }
    }
  });

  it('refuses a field that has no configured limit, so that a wiring mistake is loud', async () => {
    const limiter = createFieldLimiter(stores[0] as CounterStore, config);
    await expect(
      limiter(freshSubject(), { fieldName: 'createPet' } as GraphQLResolveInfo, {}),
    ).rejects.toThrow('No per-field rate limit is configured for createPet');
  });
});
