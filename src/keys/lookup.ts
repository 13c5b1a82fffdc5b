import type { Db } from '../db/client.ts';
import { hashApiKey, isWellFormedApiKey } from './api-key.ts';
import { type ActiveKey, findActiveKey } from './repository.ts';

/** The active key behind an X-API-Key value, or null for an unknown or revoked one. */
export type KeyLookup = (apiKey: string) => Promise<ActiveKey | null>;

export interface KeyCacheOptions {
  ttlMs: number;
  maxEntries: number;
}

/**
 * Every API request with a key pays this lookup, so answers (found or not) are kept in-process for
 * `ttlMs`: a revoked key goes on working for at most that long on each gateway process. The cache is
 * bounded (the oldest entry goes first) and concurrent lookups of one key share one query.
 */
export function createKeyLookup(prisma: Db, { ttlMs, maxEntries }: KeyCacheOptions): KeyLookup {
  const cache = new Map<string, { expiresAt: number; answer: Promise<ActiveKey | null> }>();
  return (apiKey) => {
    if (!isWellFormedApiKey(apiKey)) return Promise.resolve(null);
    const hash = hashApiKey(apiKey);
    const now = Date.now();
    const cached = cache.get(hash);
    if (cached && cached.expiresAt > now) return cached.answer;

    const answer = findActiveKey(prisma, hash);
    cache.delete(hash);
    cache.set(hash, { expiresAt: now + ttlMs, answer });
    if (cache.size > maxEntries) cache.delete(cache.keys().next().value as string);
    answer.catch(() => {
      if (cache.get(hash)?.answer === answer) cache.delete(hash);
    });
    return answer;
  };
}
