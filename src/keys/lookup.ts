import type { MaybePromise } from '@whatwg-node/promise-helpers';
import type { Db } from '../db/client.ts';
import { hashApiKey, isWellFormedApiKey } from './api-key.ts';
import { type ActiveKey, findActiveKey } from './repository.ts';

/**
 * The active key behind an X-API-Key value, or null for an unknown or revoked one; at once when the
 * answer is cached.
 */
export type KeyLookup = (apiKey: string) => MaybePromise<ActiveKey | null>;

export interface KeyCacheOptions {
  ttlMs: number;
  maxEntries: number;
}

interface CacheEntry {
  expiresAt: number;
  /** The answer, or while it is being looked up, the lookup every caller of the key waits on. */
  answer: MaybePromise<ActiveKey | null>;
}

/**
 * Every API request with a key pays this lookup, so answers (found or not) are kept in-process for
 * `ttlMs`: a revoked key goes on working for at most that long on each gateway process. The cache is
 * bounded (the oldest entry goes first), concurrent lookups of one key share one query, and it is keyed
 * by the presented value itself, so that a cached key costs no hashing (the value is in the request's
 * memory anyway; only the hash is ever stored).
 */
export function createKeyLookup(prisma: Db, { ttlMs, maxEntries }: KeyCacheOptions): KeyLookup {
  const cache = new Map<string, CacheEntry>();
  return (apiKey) => {
    const now = Date.now();
    const cached = cache.get(apiKey);
    if (cached && cached.expiresAt > now) return cached.answer;
    if (!isWellFormedApiKey(apiKey)) return null;

    const lookup = findActiveKey(prisma, hashApiKey(apiKey));
    const entry: CacheEntry = { expiresAt: now + ttlMs, answer: lookup };
    cache.delete(apiKey);
    cache.set(apiKey, entry);
    if (cache.size > maxEntries) cache.delete(cache.keys().next().value as string);
    lookup.then(
      (key) => {
        entry.answer = key;
      },
      () => {
        if (cache.get(apiKey) === entry) cache.delete(apiKey);
      },
    );
    return lookup;
  };
}
