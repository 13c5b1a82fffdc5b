import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRateLimitConfig } from '../../src/config/rate-limits.ts';
import { factsOf } from '../../src/graphql/field-facts/facts.ts';
import { buildSchema } from '../../src/graphql/schema.ts';
import type { CounterStore } from '../../src/ratelimit/counters/counter.ts';
import { createFieldLimiter } from '../../src/ratelimit/field-limits.ts';
import { freshSubject, openStore, type StoreKind } from './stores.ts';

const config = { fieldLimits: { placeOrder: 10 }, minuteSeconds: 60 };
const placeOrder = (calls: number) => new Map([['placeOrder', calls]]);

describe.each<StoreKind>(['memory', 'redis'])('per-field limit on %s', (kind) => {
  let stores: CounterStore[];
  beforeAll(async () => {
    stores = await Promise.all([openStore(kind), openStore(kind)]);
  });
  afterAll(() => Promise.all(stores.map((s) => s.close())));

  it.each([
    { name: '15 calls in one operation: refused whole', operations: [15], admitted: [false] },
    { name: '6 calls with 5 left: refused whole', operations: [5, 6], admitted: [true, false] },
    {
      name: '4 calls with 5 left: all taken',
      operations: [5, 6, 4, 1, 1],
      admitted: [true, false, true, true, false],
    },
    {
      name: '10 operations of one call: the 11th refused',
      operations: Array(11).fill(1),
      admitted: [...Array(10).fill(true), false],
    },
  ])('$name', async ({ operations, admitted }) => {
    const limit = createFieldLimiter(stores[0] as CounterStore, config);
    const subject = freshSubject();
    const outcomes = [];
    for (const calls of operations) outcomes.push((await limit(subject, placeOrder(calls))) === undefined);
    expect(outcomes).toEqual(admitted);
  });

  it('says what was refused and when to retry', async () => {
    const limit = createFieldLimiter(stores[0] as CounterStore, config);
    const subject = freshSubject();
    await limit(subject, placeOrder(5));
    const refusal = await limit(subject, placeOrder(6));
    expect(refusal?.error.toBody()).toEqual({
      code: 'RATE_LIMITED',
      message:
        'placeOrder is limited to 10 calls per 60 s per caller; this operation makes 6 and 5 are left, so none of it ran; retry in 60 s',
      status: 429,
    });
    expect(refusal?.retryAfterSeconds).toBe(60);
  });

  it('allows exactly the limit of many concurrent operations, over every process sharing the counters', async () => {
    const sharing = kind === 'redis' ? stores : [stores[0] as CounterStore];
    const limiters = sharing.map((store) => createFieldLimiter(store, config));
    const subject = freshSubject();
    const refusals = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        limiters[i % limiters.length]?.(subject, placeOrder(i % 3 ? 1 : 2)),
      ),
    );
    let taken = 0;
    refusals.forEach((refusal, i) => {
      if (refusal === undefined) taken += i % 3 ? 1 : 2;
    });
    expect(taken).toBe(10);
  });

  it('refuses a field that has no configured limit, so that a wiring mistake is loud', () => {
    const limit = createFieldLimiter(stores[0] as CounterStore, config);
    expect(() => limit(freshSubject(), new Map([['createPet', 1]]))).toThrow(
      'No per-field rate limit is configured for createPet',
    );
  });
});

it('has a configured limit for every field the schema marks as limited, and marks placeOrder', () => {
  const schema = buildSchema();
  const marked = [schema.getQueryType(), schema.getMutationType()].flatMap((root) =>
    Object.values(root?.getFields() ?? {})
      .filter((field) => factsOf(field).fieldLimit)
      .map((field) => field.name),
  );
  expect(marked).toEqual(['placeOrder']);
  expect(Object.keys(loadRateLimitConfig({}).fieldLimits)).toEqual(marked);
});
