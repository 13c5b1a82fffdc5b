import type { MaybePromise } from '@whatwg-node/promise-helpers';
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/client.ts';
import { hashApiKey, isWellFormedApiKey } from './api-key.ts';
import { type ActiveKey, findActiveKey } from './repository.ts';

/**
 * The active key behind an X-API-Key value, or null for an unknown or revoked one; at once, not as a promise,
 * when the answer is cached, since every request with a key waits on it.
 */
export type KeyLookup = (apiKey: string) => MaybePromise<ActiveKey | null>;

export interface KeyCacheOptions {
  /** How long an answer is kept; a revoked key goes on working for at most this long. 0: never kept. */
  ttlMs: number;
  maxEntries: number;
  /** The clock the TTL is measured on, in milliseconds (tests pass their own). */
  now?: () => number;
}

/** lru-cache holds no null: an unknown key's answer is kept as `{ answer: null }`. */
interface CacheEntry {
  /** The answer, or while it is being looked up, the lookup every caller of the key waits on. */
  answer: MaybePromise<ActiveKey | null>;
}

/**
 * Answers (found or not) are kept in-process, the least recently used going first, and concurrent lookups of
 * one key share one query. The cache is keyed by the presented value itself, so that a cached key costs no
 * hashing (the value is in the request's memory anyway; only the hash is ever stored).
 */
export function createKeyLookup(prisma: Db, { ttlMs, maxEntries, now }: KeyCacheOptions): KeyLookup {
  const lookUp = (apiKey: string) =>
    isWellFormedApiKey(apiKey) ? findActiveKey(prisma, hashApiKey(apiKey)) : null;
  // lru-cache reads a TTL of 0 as "never expires".
  if (ttlMs === 0) return lookUp;

  const cache = new LRUCache<string, CacheEntry>({
    max: maxEntries,
    ttl: ttlMs,
    // An injected clock is read at every check, not at most once per millisecond of real time.
    ...(now && { perf: { now }, ttlResolution: 0 }),
  });
  return (apiKey) => {
    const cached = cache.get(apiKey);
    if (cached) return cached.answer;
    const lookup = lookUp(apiKey);
    if (lookup === null) return null;

    const entry: CacheEntry = { answer: lookup };
    cache.set(apiKey, entry);
    lookup.then(
      (key) => {
        entry.answer = key;
      },
      () => {
        if (cache.peek(apiKey) === entry) cache.delete(apiKey);
      },
    );
    return lookup;
  };
}
