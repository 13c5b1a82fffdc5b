import type { MaybePromise } from '@whatwg-node/promise-helpers';
import type { Caller } from './caller.ts';

/**
 * Who may keep an answer, from least to most restrictive: any cache (`public`), the caller's own (`private`),
 * none (`no-store`). An answer is as restrictive as the most restrictive field it selects.
 */
export type CacheScope = 'public' | 'private' | 'no-store';

const RESTRICTION: Record<CacheScope, number> = { public: 0, private: 1, 'no-store': 2 };

export const mostRestrictive = (a: CacheScope, b: CacheScope): CacheScope =>
  RESTRICTION[a] >= RESTRICTION[b] ? a : b;

/** What a cacheable answer is validated by: its entity tag, and who may keep it. */
export interface Validator {
  tag: string;
  scope: Exclude<CacheScope, 'no-store'>;
}

/** What changes an API answer besides its URL: the caller's key, the media type asked for, the encoding. */
export const API_VARY = 'Accept, Accept-Encoding, X-API-Key';

/**
 * Cache-Control of an answer: public reads may be reused for the configured seconds (0: revalidated every
 * time, which costs no quota when it is a 304); the caller's own are revalidated every time; the rest never kept.
 */
export function cacheControlOf(scope: CacheScope, publicMaxAgeSeconds: number): string {
  if (scope === 'no-store') return 'no-store';
  if (scope === 'private') return 'private, no-cache';
  return publicMaxAgeSeconds > 0 ? `public, max-age=${publicMaxAgeSeconds}` : 'public, no-cache';
}

/**
 * Whether If-None-Match names the current tag (a list; weak comparison, RFC 9110 13.1.2): then 304. `*` never
 * matches: the tag is made before the operation runs, so whether its answer would be one (not an error) is not
 * known yet.
 */
export function notModified(ifNoneMatch: string | null, tag: string): boolean {
  if (ifNoneMatch === null) return false;
  const opaque = (value: string) => value.trim().replace(/^W\//, '');
  const current = opaque(tag);
  return ifNoneMatch.split(',').some((candidate) => opaque(candidate) === current);
}

/**
 * The validator of a GET's answer, made before it runs: the first step sees the request alone (undefined: its
 * answer is never tagged), the second reads the store's versions for the identified caller.
 */
export type TagRequest = (
  request: Request,
  url: URL,
) => ((caller: Caller) => MaybePromise<Validator | undefined>) | undefined;
