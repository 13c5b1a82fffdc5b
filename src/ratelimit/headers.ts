import { type Budget, tightestWindow, type WindowState, type Windows } from './limiter.ts';

/**
 * The rate-limit fields of an API response: the de-facto X-RateLimit-* trio for the window with fewer
 * requests left, and the IETF draft's (draft-ietf-httpapi-ratelimit-headers) RateLimit-Policy and
 * RateLimit fields for every window. X-RateLimit-Budget names the budget that counted the request; the
 * introspection budget's policies are named `introspection-minute` and `introspection-day`.
 */
export function setRateLimitHeaders(
  headers: Headers,
  windows: Windows,
  budget: Budget = 'plan',
  now = Date.now(),
): void {
  const shown = tightestWindow(windows);
  const [minute, day] = windows;
  const prefix = budget === 'plan' ? '' : `${budget}-`;
  headers.set('x-ratelimit-limit', `${shown.limit}`);
  headers.set('x-ratelimit-remaining', `${shown.remaining}`);
  headers.set('x-ratelimit-reset', `${Math.ceil(shown.resetsAt / 1000)}`);
  headers.set('x-ratelimit-budget', budget);
  headers.set('ratelimit-policy', `${policyOf(minute, prefix)}, ${policyOf(day, prefix)}`);
  headers.set('ratelimit', `${stateOf(minute, prefix, now)}, ${stateOf(day, prefix, now)}`);
}

const policyOf = (w: WindowState, prefix: string) =>
  `"${prefix}${w.policy}";q=${w.limit};w=${w.windowSeconds}`;

const stateOf = (w: WindowState, prefix: string, now: number) =>
  `"${prefix}${w.policy}";r=${w.remaining};t=${Math.max(0, Math.ceil((w.resetsAt - now) / 1000))}`;
