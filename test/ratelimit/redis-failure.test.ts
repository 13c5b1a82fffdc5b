import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CounterStore, type Log, openRedisCounterStore } from '../../src/ratelimit/counters.ts';
import { createRateLimiter } from '../../src/ratelimit/limiter.ts';
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

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(50);
  }
}

describe('when Redis goes away mid-run', () => {
  let redis: PrivateRedis;
  beforeAll(async () => {
    redis = await PrivateRedis.start();
  });
  afterAll(() => redis.stop());

  it('fails open by default: counts in-process meanwhile, says so, and goes back to Redis when it returns', async () => {
    const log = recordingLog();
    const store = await openRedisCounterStore({ url: redis.url, keyPrefix: 'psg', onFailure: 'open' }, log);
    try {
      const limiter = createRateLimiter(store, config);
      const subject = freshSubject();
      expect(store.status()).toEqual({ store: 'redis', connected: true, onFailure: 'open' });
      expect(await limiter.consume(subject, limits, 2)).toMatchObject({
        admitted: true,
        windows: [{ remaining: 1 }, {}],
      });

      await redis.stop();
      await until(() => !connected(store));
      expect(log.lines).toContain(
        'warn: Redis unreachable: counting rate limits in this process until it is back',
      );
      // The local fallback starts from zero and still enforces the limit.
      const local = [];
      for (let i = 0; i < 4; i++) local.push(await limiter.consume(subject, limits, 1));
      expect(local.map((d) => d.admitted)).toEqual([true, true, true, false]);

      await redis.resume();
      await until(() => connected(store));
      expect(log.lines.at(-1)).toBe('info: Redis reachable: rate limits are shared by all gateway processes');
      // A restarted Redis (no persistence) starts empty: counting resumes there.
      expect(await limiter.consume(subject, limits, 1)).toMatchObject({
        admitted: true,
        windows: [{ remaining: 2 }, {}],
      });
    } finally {
      await store.close();
    }
  });

  it('fails closed when configured so: every limiter call fails until Redis is back', async () => {
    const store = await openRedisCounterStore(
      { url: redis.url, keyPrefix: 'psg', onFailure: 'closed' },
      recordingLog(),
    );
    try {
      const limiter = createRateLimiter(store, config);
      const subject = freshSubject();
      await redis.stop();
      await until(() => !connected(store));
      await expect(limiter.consume(subject, limits, 1)).rejects.toThrow('Redis connection is not ready');

      await redis.resume();
      await until(() => connected(store));
      expect(await limiter.consume(subject, limits, 1)).toMatchObject({ admitted: true });
    } finally {
      await store.close();
    }
  });

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
      expect(await limiter.consume(freshSubject(), limits, 1)).toMatchObject({ admitted: true });
    } finally {
      await store.close();
      await redis.resume();
    }
  });
});
