import type { Limits } from '../keys/plans.ts';
import { tightestWindow, type WindowState } from './limiter.ts';

// A quota's RateLimit-Policy never changes: it is written once per quota (the plans' and each key's own
// limits are long-lived objects).
const policies = new WeakMap<Limits, string>();

/**
 * The rate-limit fields of an API response: the de-facto X-RateLimit-* trio for the window with fewer
 * requests left, and the IETF draft's (draft-ietf-httpapi-ratelimit-headers) RateLimit-Policy and
 * RateLimit fields for every window.
 */
export function setRateLimitHeaders(
  headers: Headers,
  limits: Limits,
  windows: WindowState[],
  now = Date.now(),
): void {
  const shown = tightestWindow(windows);
  let policy = policies.get(limits);
  if (policy === undefined) {
    policy = windows.map((w) => `"${w.policy}";q=${w.limit};w=${w.windowSeconds}`).join(', ');
    policies.set(limits, policy);
  }
  let states = '';
  for (const w of windows) {
    if (states) states += ', ';
    states += `"${w.policy}";r=${w.remaining};t=${Math.max(0, Math.ceil((w.resetsAt - now) / 1000))}`;
  }
  headers.set('X-RateLimit-Limit', String(shown.limit));
  headers.set('X-RateLimit-Remaining', String(shown.remaining));
  headers.set('X-RateLimit-Reset', String(Math.ceil(shown.resetsAt / 1000)));
  headers.set('RateLimit-Policy', policy);
  headers.set('RateLimit', states);
}
