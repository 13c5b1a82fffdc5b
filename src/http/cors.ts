import type { IncomingMessage, ServerResponse } from 'node:http';
import { nameOperation } from '../observability/request-context.ts';

// What a page on an allowed origin may send and read. The key is a header, never a cookie, so credentials
// are never allowed (no Access-Control-Allow-Credentials).
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
// Besides the gateway's own headers, those GraphQL clients add for other servers' CSRF checks (Apollo's,
// Yoga's): a preflight that names a header not listed here fails whole, in the browser.
const ALLOWED_HEADERS = [
  'Content-Type',
  'Accept',
  'X-API-Key',
  'Idempotency-Key',
  'X-Request-Id',
  // A page that keeps answers itself revalidates them (304, free of quota); the browser's own cache needs neither.
  'If-None-Match',
  'Apollo-Require-Preflight',
  'X-Apollo-Operation-Name',
  'Apollographql-Client-Name',
  'Apollographql-Client-Version',
  'X-GraphQL-Yoga-CSRF',
].join(', ');
const EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Budget',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'Link',
  'Location',
  'Deprecation',
  'Sunset',
  'Idempotent-Replayed',
  'X-Request-Id',
  'ETag',
].join(', ');
/** How long a browser may reuse a preflight's answer, in seconds (Chromium caps it at 7200). */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * Cross-origin requests from browsers (CORS), for every response of the gateway, the API's errors included:
 * a page on an allowed origin (`CORS_ORIGINS`, or any with `*`) may call the API and read the headers it
 * needs; any other origin gets no CORS headers, so its pages cannot read the responses. Same-origin pages (the
 * gateway's own GraphiQL and /docs) need none. Sets the headers before any later stage writes its response,
 * and answers preflights itself, before the rate limit: a preflight is the browser's, not the caller's, request.
 * Returns true when it answered.
 */
export function createCors(
  origins: readonly string[],
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const anyOrigin = origins.includes('*');
  const allowed = new Set(origins);
  // With a list, the answer depends on Origin: caches must keep one per origin.
  const vary = origins.length > 0 && !anyOrigin;

  return (req, res) => {
    const origin = req.headers.origin;
    const isPreflight =
      req.method === 'OPTIONS' && !!origin && !!req.headers['access-control-request-method'];
    if (vary) res.setHeader('Vary', 'Origin');
    const allowedOrigin = origin && (anyOrigin ? '*' : allowed.has(origin) ? origin : undefined);
    if (!isPreflight) {
      if (allowedOrigin) {
        res.setHeader('Access-Control-Allow-Origin', allowedOrigin);
        res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
      }
      return false;
    }
    // Answered whatever the origin: another origin gets no CORS headers, which the browser reads as a refusal.
    if (allowedOrigin) {
      res.setHeader('Access-Control-Allow-Origin', allowedOrigin);
      res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
      res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      res.setHeader('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
    }
    nameOperation(req, 'other', 'preflight');
    res.writeHead(204, { 'Content-Length': '0' }).end();
    return true;
  };
}
