import { randomUUID } from 'node:crypto';
import type { CounterStore, Log } from '../../src/ratelimit/counters/counter.ts';
import { openMemoryCounterStore } from '../../src/ratelimit/counters/memory.ts';
import { openRedisCounterStore } from '../../src/ratelimit/counters/redis.ts';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Keeps this run's keys apart from other runs and other test files on the shared Redis. */
export const REDIS_KEY_PREFIX = `test-${randomUUID()}`;

export const silentLog: Log = { info() {}, warn() {} };

export type StoreKind = 'memory' | 'redis';

/** A clock that moves only when told to, for memory counters: windows end without waiting for them. */
export class TestClock {
  #now = Date.now();
  readonly now = () => this.#now;
  advance(ms: number): void {
    this.#now += ms;
  }
}

/**
 * A counter store of the given kind (memory ones on `clock`). Redis is the shared server, fail-closed so
 * that a Redis problem fails the test instead of being absorbed by the in-process fallback.
 */
export async function openStore(kind: StoreKind, clock = new TestClock()): Promise<CounterStore> {
  if (kind === 'memory') return openMemoryCounterStore({ now: clock.now });
  const store = await openRedisCounterStore(
    { url: REDIS_URL, keyPrefix: REDIS_KEY_PREFIX, onFailure: 'closed' },
    silentLog,
  );
  const status = store.status();
  if (status.store !== 'redis' || !status.connected) {
    await store.close();
    throw new Error(`Redis at ${REDIS_URL} is not reachable; these tests need it (start it as .ci/run does)`);
  }
  return store;
}

/** A subject no other test (or earlier run against the same Redis) has used. */
export const freshSubject = () => `test:${randomUUID()}`;
