import { tightestWindow, type WindowState } from './limiter.ts';

/**
 * The rate-limit fields of an API response: the de-facto X-RateLimit-* trio for the window with fewer
 * requests left, and the IETF draft's (draft-ietf-httpapi-ratelimit-headers) RateLimit-Policy and
 * RateLimit fields for every window.
 */
export function setRateLimitHeaders(headers: Headers, windows: WindowState[], now = Date.now()): void {
  const shown = tightestWindow(windows);
  let policies = '';
  let states = '';
  for (const w of windows) {
    const separator = policies ? ', ' : '';
    policies += `${separator}"${w.policy}";q=${w.limit};w=${w.windowSeconds}`;
    states += `${separator}"${w.policy}";r=${w.remaining};t=${Math.max(0, Math.ceil((w.resetsAt - now) / 1000))}`;
  }
  headers.set('x-ratelimit-limit', String(shown.limit));
  headers.set('x-ratelimit-remaining', String(shown.remaining));
  headers.set('x-ratelimit-reset', String(Math.ceil(shown.resetsAt / 1000)));
  headers.set('ratelimit-policy', policies);
  headers.set('ratelimit', states);
}
