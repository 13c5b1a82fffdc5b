import { isPromise } from '@whatwg-node/promise-helpers';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Limits } from '../../src/contract/plans.ts';
import type { CounterStore } from '../../src/ratelimit/counters/counter.ts';
import { createRateLimiter, type Decision, type RateLimiter } from '../../src/ratelimit/limiter.ts';
import { freshSubject, openStore, REDIS_KEY_PREFIX, REDIS_URL, type StoreKind, TestClock } from './stores.ts';

const config = { minuteSeconds: 60, daySeconds: 86_400, banAfterRefusals: 30, banSeconds: 600 };
const free = { perMinute: 60, perDay: 1000 };

async function admitInTurn(limiter: RateLimiter, subject: string, limits: Limits, points: number[]) {
  const decisions: Decision[] = [];
  for (const p of points) decisions.push(await limiter.admit(subject, limits, p));
  return decisions;
}

const outcome = (decision: Decision) => (decision.admitted ? 'ok' : decision.code);

// Each case: the points of successive requests, what each gets, and the windows of the last.
const cases: {
  name: string;
  limits: Limits;
  points: number[];
  outcomes: string[];
  last: object;
  retryAfter: [number, number];
}[] = [
  {
    name: 'the 60th request of a Free caller is admitted, the 61st refused by the minute',
    limits: free,
    points: Array(61).fill(1),
    outcomes: [...Array(60).fill('ok'), 'RATE_LIMITED'],
    last: { refusedBy: { policy: 'minute' }, windows: [{ limit: 60, remaining: 0 }, { remaining: 940 }] },
    retryAfter: [59, 60],
  },
  {
    name: 'the day binds when its quota is the smaller one, and Retry-After points at its reset',
    limits: { perMinute: 100, perDay: 3 },
    points: [1, 1, 1, 1],
    outcomes: ['ok', 'ok', 'ok', 'RATE_LIMITED'],
    last: { refusedBy: { policy: 'day' }, windows: [{ remaining: 97 }, { remaining: 0 }] },
    retryAfter: [86_000, 86_400],
  },
  {
    name: 'a batch that does not fit is refused whole, taking none of it',
    limits: { perMinute: 5, perDay: 100 },
    points: [1, 1, 1, 3, 2],
    outcomes: ['ok', 'ok', 'ok', 'RATE_LIMITED', 'ok'],
    last: { windows: [{ remaining: 0 }, { remaining: 95 }] },
    retryAfter: [0, 0],
  },
];

describe.each<StoreKind>(['memory', 'redis'])('rate limiter on %s', (kind) => {
  let store: CounterStore;
  beforeAll(async () => {
    store = await openStore(kind);
  });
  afterAll(() => store.close());

  it.each(cases)('$name', async ({ limits, points, outcomes, last, retryAfter }) => {
    const limiter = createRateLimiter(store, config);
    const decisions = await admitInTurn(limiter, freshSubject(), limits, points);
    expect(decisions.map(outcome)).toEqual(outcomes);
    expect(decisions.at(-1)).toMatchObject(last);
    const refused = decisions.find((decision) => !decision.admitted);
    if (refused?.admitted !== false) throw new Error('each case has a refusal');
    if (retryAfter[1] > 0) {
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(retryAfter[0]);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(retryAfter[1]);
    }
    // Remaining is never negative and never above the limit, admitted or not.
    for (const { windows } of decisions) {
      for (const window of windows)
        expect(window.remaining).toSatisfy((r: number) => r >= 0 && r <= window.limit);
    }
  });
});

describe('rate limiter over time (in-process counters on a test clock)', () => {
  const clock = new TestClock();
  let store: CounterStore;
  beforeAll(async () => {
    store = await openStore('memory', clock);
  });
  const limiterWith = (overrides: Partial<typeof config>) =>
    createRateLimiter(store, { ...config, ...overrides }, { now: clock.now });

  it('answers at once, without a promise', () => {
    const decision = limiterWith({}).admit(freshSubject(), free, 1);
    expect(isPromise(decision)).toBe(false);
    expect(decision).toMatchObject({ admitted: true, windows: [{ remaining: 59 }, { remaining: 999 }] });
  });

  it('refused requests use no quota: once the minute resets, the day counts only those admitted', async () => {
    const limiter = limiterWith({});
    const subject = freshSubject();
    const limits = { perMinute: 2, perDay: 100 };
    const decisions = await admitInTurn(limiter, subject, limits, [1, 1, 1, 1, 1, 1]);
    expect(decisions.map(outcome)).toEqual([
      'ok',
      'ok',
      'RATE_LIMITED',
      'RATE_LIMITED',
      'RATE_LIMITED',
      'RATE_LIMITED',
    ]);
    const refused = decisions[2];
    if (refused?.admitted !== false) throw new Error('unreachable');

    clock.advance(refused.retryAfterSeconds * 1000);
    expect(await limiter.admit(subject, limits, 1)).toMatchObject({
      admitted: true,
      windows: [{ remaining: 1 }, { remaining: 97 }],
    });
  });

  it('bans a caller that goes on sending while refused, leaving others alone, until the ban ends', async () => {
    const limiter = limiterWith({ banAfterRefusals: 3, banSeconds: 180 });
    const subject = freshSubject();
    const limits = { perMinute: 1, perDay: 100 };
    const decisions = await admitInTurn(limiter, subject, limits, [1, 1, 1, 1, 1]);
    expect(decisions.map(outcome)).toEqual([
      'ok',
      'RATE_LIMITED',
      'RATE_LIMITED',
      'RATE_LIMITED',
      'KEY_BANNED',
    ]);
    expect(decisions[4]).toMatchObject({
      retryAfterSeconds: 180,
      windows: [{ remaining: 0 }, { remaining: 99 }],
    });
    expect(await limiter.admit(freshSubject(), limits, 1)).toMatchObject({ admitted: true });

    clock.advance(60_000); // the minute window is over, the ban is not
    const during = await limiter.admit(subject, limits, 1);
    expect(during).toMatchObject({ code: 'KEY_BANNED', retryAfterSeconds: 120 });
    expect(during.windows[0]).toMatchObject({ remaining: 0, resetsAt: clock.now() + 120_000 });
    clock.advance(120_000);
    expect(await limiter.admit(subject, limits, 1)).toMatchObject({ admitted: true });
  });

  it('gives points back to the windows they were taken from, never to a newer one', async () => {
    const limiter = limiterWith({});
    const subject = freshSubject();
    const limits = { perMinute: 2, perDay: 100 };
    const paid = await limiter.admit(subject, limits, 2);
    if (!paid.admitted) throw new Error('unreachable');
    expect(await limiter.giveBack(subject, paid, 1)).toEqual([true, true]);
    expect(await limiter.admit(subject, limits, 1)).toMatchObject({
      windows: [{ remaining: 0 }, { remaining: 98 }],
    });

    clock.advance(60_000);
    // The minute the points came from is over: only the day gets them back.
    expect(await limiter.giveBack(subject, paid, 1)).toEqual([false, true]);
    const decisions = await admitInTurn(limiter, subject, limits, [1, 1, 1]);
    expect(decisions.map(outcome)).toEqual(['ok', 'ok', 'RATE_LIMITED']);
  });
});

describe('rate limiter on one Redis shared by two gateway processes', () => {
  let stores: CounterStore[];
  beforeAll(async () => {
    stores = await Promise.all([openStore('redis'), openStore('redis')]);
  });
  afterAll(() => Promise.all(stores.map((s) => s.close())));

  it('admits exactly the limit of 150 concurrent requests, counted in one integer per window', async () => {
    // (A threshold above the 90 refusals, so that no ban starts.)
    const limiters = stores.map((s) => createRateLimiter(s, { ...config, banAfterRefusals: 100 }));
    const subject = freshSubject();
    const decisions = await Promise.all(
      Array.from({ length: 150 }, (_, i) => limiters[i % 2]?.admit(subject, free, 1)),
    );
    expect(decisions.filter((d) => d?.admitted)).toHaveLength(60);

    const redis = new Redis(REDIS_URL);
    try {
      expect(await redis.get(`${REDIS_KEY_PREFIX}:minute:${subject}`)).toBe('60');
      expect(await redis.get(`${REDIS_KEY_PREFIX}:day:${subject}`)).toBe('60');
    } finally {
      redis.disconnect();
    }
  });

  it('holds a ban started through one gateway on the other', async () => {
    const [first, second] = stores.map((s) => createRateLimiter(s, { ...config, banAfterRefusals: 1 }));
    if (!first || !second) throw new Error('unreachable');
    const subject = freshSubject();
    const limits = { perMinute: 1, perDay: 100 };
    const decisions = await admitInTurn(first, subject, limits, [1, 1, 1]);
    expect(decisions.map(outcome)).toEqual(['ok', 'RATE_LIMITED', 'KEY_BANNED']);
    expect(await second.admit(subject, limits, 1)).toMatchObject({ admitted: false, code: 'KEY_BANNED' });
  });
});
