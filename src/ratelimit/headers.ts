import { tightestWindow, type WindowState, type Windows } from './limiter.ts';

/**
 * The rate-limit fields of an API response: the de-facto X-RateLimit-* trio for the window with fewer
 * requests left, and the IETF draft's (draft-ietf-httpapi-ratelimit-headers) RateLimit-Policy and
 * RateLimit fields for every window.
 */
export function setRateLimitHeaders(headers: Headers, windows: Windows, now = Date.now()): void {
  const shown = tightestWindow(windows);
  const [minute, day] = windows;
  headers.set('x-ratelimit-limit', `${shown.limit}`);
  headers.set('x-ratelimit-remaining', `${shown.remaining}`);
  headers.set('x-ratelimit-reset', `${Math.ceil(shown.resetsAt / 1000)}`);
  headers.set('ratelimit-policy', `${policyOf(minute)}, ${policyOf(day)}`);
  headers.set('ratelimit', `${stateOf(minute, now)}, ${stateOf(day, now)}`);
}

const policyOf = (w: WindowState) => `"${w.policy}";q=${w.limit};w=${w.windowSeconds}`;

const stateOf = (w: WindowState, now: number) =>
  `"${w.policy}";r=${w.remaining};t=${Math.max(0, Math.ceil((w.resetsAt - now) / 1000))}`;
