import { setTimeout as sleep } from 'node:timers/promises';
import type { MaybePromise } from '@whatwg-node/promise-helpers';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CounterStore } from '../../src/ratelimit/counters.ts';
import { createRateLimiter, type Decision } from '../../src/ratelimit/limiter.ts';
import { freshSubject, openStore, REDIS_KEY_PREFIX, REDIS_URL, type StoreKind } from './stores.ts';

const config = { minuteSeconds: 60, daySeconds: 86_400, banAfterRefusals: 30, banSeconds: 600 };
const free = { perMinute: 60, perDay: 1000 };

async function consumeSequentially(
  consume: () => MaybePromise<Decision>,
  times: number,
): Promise<Decision[]> {
  const decisions: Decision[] = [];
  for (let i = 0; i < times; i++) decisions.push(await consume());
  return decisions;
}

describe.each<StoreKind>(['memory', 'redis'])('rate limiter on %s', (kind) => {
  let store: CounterStore;
  beforeAll(async () => {
    store = await openStore(kind);
  });
  afterAll(() => store.close());

  it('admits the 60th request of a Free caller and refuses the 61st until the minute window resets', async () => {
    const limiter = createRateLimiter(store, config);
    const subject = freshSubject();
    const decisions = await consumeSequentially(() => limiter.consume(subject, free, 1), 61);

    expect(decisions.slice(0, 60).every((d) => d.admitted)).toBe(true);
    expect(decisions[59]?.windows[0]).toMatchObject({ policy: 'minute', limit: 60, remaining: 0 });
    const refused = decisions[60];
    expect(refused).toMatchObject({ admitted: false, code: 'RATE_LIMITED', refusedBy: { policy: 'minute' } });
    const minute = refused?.windows[0];
    expect(minute).toMatchObject({ policy: 'minute', limit: 60, remaining: 0 });
    if (refused?.admitted !== false || !minute) throw new Error('unreachable');
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(refused.retryAfterSeconds * 1000).toBeGreaterThanOrEqual(minute.resetsAt - Date.now());
  });

  it('refuses a batch that does not fit without consuming any of it, and gives back what it held', async () => {
    const limiter = createRateLimiter(store, config);
    const subject = freshSubject();
    const limits = { perMinute: 5, perDay: 100 };
    await consumeSequentially(() => limiter.consume(subject, limits, 1), 3);

    const first = await limiter.consume(subject, limits, 1);
    expect(first).toMatchObject({ admitted: true, windows: [{ remaining: 1 }, { remaining: 96 }] });
    const rest = await limiter.consume(subject, limits, 3, 1);
    expect(rest).toMatchObject({
      admitted: false,
      code: 'RATE_LIMITED',
      windows: [{ remaining: 2 }, { remaining: 97 }],
    });

    const two = await limiter.consume(subject, limits, 2);
    expect(two).toMatchObject({ admitted: true, windows: [{ remaining: 0 }, { remaining: 95 }] });
  });

  it('refused requests do not use quota: after the minute resets, the day window counts only admitted ones', async () => {
    const limiter = createRateLimiter(store, { ...config, minuteSeconds: 1 });
    const subject = freshSubject();
    const limits = { perMinute: 2, perDay: 100 };
    const decisions = await consumeSequentially(() => limiter.consume(subject, limits, 1), 6);
    expect(decisions.map((d) => d.admitted)).toEqual([true, true, false, false, false, false]);

    await sleep(1100);
    const after = await limiter.consume(subject, limits, 1);
    expect(after).toMatchObject({ admitted: true, windows: [{ remaining: 1 }, { remaining: 97 }] });
  });

  it('the day window binds when its quota is the smaller one, and Retry-After points at its reset', async () => {
    const limiter = createRateLimiter(store, config);
    const subject = freshSubject();
    const enterprise = { perMinute: 100, perDay: 3 };
    const decisions = await consumeSequentially(() => limiter.consume(subject, enterprise, 1), 4);

    expect(decisions.map((d) => d.admitted)).toEqual([true, true, true, false]);
    const refused = decisions[3];
    expect(refused).toMatchObject({
      code: 'RATE_LIMITED',
      refusedBy: { policy: 'day' },
      windows: [{ remaining: 97 }, { remaining: 0 }],
    });
    if (refused?.admitted !== false) throw new Error('unreachable');
    expect(refused.retryAfterSeconds).toBeGreaterThan(86_000);
  });

  it('a refused client is admitted again once it waits out Retry-After', async () => {
    const limiter = createRateLimiter(store, { ...config, minuteSeconds: 2 });
    const subject = freshSubject();
    const limits = { perMinute: 2, perDay: 100 };
    const decisions = await consumeSequentially(() => limiter.consume(subject, limits, 1), 3);
    const refused = decisions[2];
    if (refused?.admitted !== false) throw new Error('the third request should be refused');
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(2);

    await sleep(refused.retryAfterSeconds * 1000);
    expect(await limiter.consume(subject, limits, 1)).toMatchObject({ admitted: true });
  });

  it('bans a caller that goes on sending while refused, without affecting anyone else, until the ban ends', async () => {
    const limiter = createRateLimiter(store, {
      ...config,
      minuteSeconds: 1,
      banAfterRefusals: 3,
      banSeconds: 3,
    });
    const subject = freshSubject();
    const bystander = freshSubject();
    const limits = { perMinute: 1, perDay: 100 };
    const decisions = await consumeSequentially(() => limiter.consume(subject, limits, 1), 5);

    expect(decisions.map((d) => (d.admitted ? 'ok' : d.code))).toEqual([
      'ok',
      'RATE_LIMITED',
      'RATE_LIMITED',
      'RATE_LIMITED',
      'KEY_BANNED',
    ]);
    expect(decisions[4]).toMatchObject({ code: 'KEY_BANNED', retryAfterSeconds: 3 });
    expect(await limiter.consume(bystander, limits, 1)).toMatchObject({ admitted: true });

    await sleep(1100); // the minute window has reset, the ban has not
    const during = await limiter.consume(subject, limits, 1);
    expect(during).toMatchObject({
      admitted: false,
      code: 'KEY_BANNED',
      windows: [{ remaining: 0 }, { remaining: 99 }],
    });
    if (during.admitted) throw new Error('unreachable');
    await sleep(during.retryAfterSeconds * 1000);
    expect(await limiter.consume(subject, limits, 1)).toMatchObject({ admitted: true });
  });
});

describe('rate limiter on one Redis shared by two gateway processes', () => {
  let stores: CounterStore[];
  beforeAll(async () => {
    stores = await Promise.all([openStore('redis'), openStore('redis')]);
  });
  afterAll(() => Promise.all(stores.map((s) => s.close())));

  it('admits exactly the limit of 150 concurrent requests, and counts them in one integer per window', async () => {
    // (A threshold above the 90 refusals, so that no ban holds the minute counter.)
    const limiters = stores.map((s) => createRateLimiter(s, { ...config, banAfterRefusals: 100 }));
    const subject = freshSubject();
    const decisions = await Promise.all(
      Array.from({ length: 150 }, (_, i) => limiters[i % 2]?.consume(subject, free, 1)),
    );
    expect(decisions.filter((d) => d?.admitted)).toHaveLength(60);

    const redis = new Redis(REDIS_URL);
    try {
      expect(await redis.type(`${REDIS_KEY_PREFIX}:minute:${subject}`)).toBe('string');
      expect(await redis.get(`${REDIS_KEY_PREFIX}:minute:${subject}`)).toBe('60');
      expect(await redis.get(`${REDIS_KEY_PREFIX}:day:${subject}`)).toBe('60');
    } finally {
      redis.disconnect();
    }
  });

  it('holds a ban started through one gateway on the other', async () => {
    const [first, second] = stores.map((s) => createRateLimiter(s, { ...config, banAfterRefusals: 1 }));
    const subject = freshSubject();
    const limits = { perMinute: 1, perDay: 100 };
    const decisions = await consumeSequentially(
      () => first?.consume(subject, limits, 1) as MaybePromise<Decision>,
      3,
    );
    expect(decisions.map((d) => (d.admitted ? 'ok' : d.code))).toEqual(['ok', 'RATE_LIMITED', 'KEY_BANNED']);
    expect(await second?.consume(subject, limits, 1)).toMatchObject({ admitted: false, code: 'KEY_BANNED' });
  });
});
