import { randomUUID } from 'node:crypto';
import {
  type CounterStore,
  type Log,
  openMemoryCounterStore,
  openRedisCounterStore,
} from '../../src/ratelimit/counters.ts';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Keeps this run's keys apart from other runs and other test files on the shared Redis. */
export const REDIS_KEY_PREFIX = `test-${randomUUID()}`;

export const silentLog: Log = { info() {}, warn() {} };

export type StoreKind = 'memory' | 'redis';

/**
 * A counter store of the given kind. Redis is the shared server, fail-closed so that a Redis problem
 * fails the test instead of being absorbed by the in-process fallback.
 */
export async function openStore(kind: StoreKind): Promise<CounterStore> {
  if (kind === 'memory') return openMemoryCounterStore();
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
