import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CounterStore, Log } from '../../src/ratelimit/counters/counter.ts';
import { openRedisCounterStore } from '../../src/ratelimit/counters/redis.ts';
import { createRateLimiter, type Decision, type RateLimiter } from '../../src/ratelimit/limiter.ts';
import { PrivateRedis } from './redis-server.ts';
import { freshSubject } from './stores.ts';

const config = { minuteSeconds: 60, daySeconds: 86_400, banAfterRefusals: 30, banSeconds: 600 };
const limits = { perMinute: 3, perDay: 100 };

function recordingLog(): Log & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (_, message) => lines.push(`info: ${message}`),
    warn: (_, message) => lines.push(`warn: ${message}`),
  };
}

const connected = (store: CounterStore) => {
  const status = store.status();
  return status.store === 'redis' && status.connected;
};

async function admitInTurn(limiter: RateLimiter, subject: string, times: number) {
  const decisions: Decision[] = [];
  for (let i = 0; i < times; i++) decisions.push(await limiter.admit(subject, limits, 1));
  return decisions.map((decision) => decision.admitted);
}

describe('when Redis goes away mid-run', () => {
  let redis: PrivateRedis;
  beforeAll(async () => {
    redis = await PrivateRedis.start();
  });
  afterAll(() => redis.stop());

  /** Runs `test` with a limiter on a new store of counters in Redis, closed after it. */
  async function withLimiter(
    onFailure: 'open' | 'closed',
    test: (limiter: RateLimiter, store: CounterStore, log: ReturnType<typeof recordingLog>) => Promise<void>,
  ) {
    const log = recordingLog();
    const store = await openRedisCounterStore({ url: redis.url, keyPrefix: 'psg', onFailure }, log);
    try {
      await test(createRateLimiter(store, config), store, log);
    } finally {
      await store.close();
    }
  }

  it('fails open by default: counts in-process meanwhile, says so, and goes back to Redis when it returns', () =>
    withLimiter('open', async (limiter, store, log) => {
      const subject = freshSubject();
      expect(store.status()).toEqual({ store: 'redis', connected: true, onFailure: 'open' });
      expect(await limiter.admit(subject, limits, 2)).toMatchObject({
        admitted: true,
        windows: [{ remaining: 1 }, {}],
      });

      await redis.stop();
      await expect.poll(() => connected(store)).toBe(false);
      expect(log.lines).toContain(
        'warn: Redis unreachable: counting rate limits in this process until it is back',
      );
      // The local fallback starts from zero and still enforces the limit.
      expect(await admitInTurn(limiter, subject, 4)).toEqual([true, true, true, false]);

      await redis.resume();
      await expect.poll(() => connected(store), { timeout: 10_000 }).toBe(true);
      expect(log.lines.at(-1)).toBe('info: Redis reachable: rate limits are shared by all gateway processes');
      // A restarted Redis (no persistence) starts empty: counting resumes there.
      expect(await limiter.admit(subject, limits, 1)).toMatchObject({
        admitted: true,
        windows: [{ remaining: 2 }, {}],
      });
    }));

  it('never gives back points to a store that did not take them, so no window falls below what was paid', () =>
    withLimiter('open', async (limiter, store) => {
      const subject = freshSubject();
      const inRedis = await limiter.admit(subject, limits, 2);
      if (!inRedis.admitted) throw new Error('unreachable');

      await redis.stop();
      await expect.poll(() => connected(store)).toBe(false);
      // Paid in Redis, given back while it is down: the in-process fallback does not get the points.
      expect(await limiter.giveBack(subject, inRedis, 2)).toEqual([false, false]);
      const local = await limiter.admit(subject, limits, 1);
      if (!local.admitted) throw new Error('unreachable');
      expect(await admitInTurn(limiter, subject, 3)).toEqual([true, true, false]);

      await redis.resume();
      await expect.poll(() => connected(store), { timeout: 10_000 }).toBe(true);
      await limiter.admit(subject, limits, 1);
      // Paid in the fallback, given back once Redis is back: to the fallback, not to Redis.
      await limiter.giveBack(subject, local, 1);
      expect(await admitInTurn(limiter, subject, 3)).toEqual([true, true, false]);
    }));

  it('fails closed when configured so: every limiter call fails until Redis is back', () =>
    withLimiter('closed', async (limiter, store) => {
      const subject = freshSubject();
      await redis.stop();
      await expect.poll(() => connected(store)).toBe(false);
      expect(() => limiter.admit(subject, limits, 1)).toThrow('Redis connection is not ready');

      await redis.resume();
      await expect.poll(() => connected(store), { timeout: 10_000 }).toBe(true);
      expect(await limiter.admit(subject, limits, 1)).toMatchObject({ admitted: true });
    }));

  it('starts, fails open, when Redis is down at start-up', async () => {
    await redis.stop();
    const log = recordingLog();
    const store = await openRedisCounterStore({ url: redis.url, keyPrefix: 'psg', onFailure: 'open' }, log);
    try {
      expect(store.status()).toMatchObject({ connected: false });
      expect(log.lines).toEqual([
        'warn: Redis unreachable: counting rate limits in this process until it is back',
      ]);
      const limiter = createRateLimiter(store, config);
      expect(await limiter.admit(freshSubject(), limits, 1)).toMatchObject({ admitted: true });
    } finally {
      await store.close();
      await redis.resume();
    }
  });
});
