import { tightestWindow, type WindowState } from './limiter.ts';

/**
 * The rate-limit fields of an API response: the de-facto X-RateLimit-* trio for the window with fewer
 * requests left, and the IETF draft's (draft-ietf-httpapi-ratelimit-headers) RateLimit-Policy and
 * RateLimit fields for every window.
 */
export function rateLimitHeaders(windows: WindowState[], now = Date.now()): Record<string, string> {
  const shown = tightestWindow(windows);
  const secondsLeft = (w: WindowState) => Math.max(0, Math.ceil((w.resetsAt - now) / 1000));
  return {
    'X-RateLimit-Limit': String(shown.limit),
    'X-RateLimit-Remaining': String(shown.remaining),
    'X-RateLimit-Reset': String(Math.ceil(shown.resetsAt / 1000)),
    'RateLimit-Policy': windows.map((w) => `"${w.policy}";q=${w.limit};w=${w.windowSeconds}`).join(', '),
    RateLimit: windows.map((w) => `"${w.policy}";r=${w.remaining};t=${secondsLeft(w)}`).join(', '),
  };
}
