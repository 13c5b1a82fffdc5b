import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIPv6 } from 'node:net';
import { sendError } from '../contract/error-response.ts';
import { type ApiError, apiError } from '../contract/errors.ts';
import { MAX_TARGET_BYTES } from '../contract/limits.ts';
import { nameOperation } from '../observability/request-context.ts';
import type { CountedRefusal } from '../ratelimit/plugin.ts';

// RFC 3986's host, as far as it names something this gateway can be: a DNS name or IPv4 address (unreserved
// characters only) or a bracketed IPv6 address, with an optional port. No path, query, userinfo or space.
const HOST = /^(?:[A-Za-z0-9._~-]{1,253}|\[([0-9A-Fa-f:.]{2,45})\])(?::(\d{0,5}))?$/;

// Verdicts on the Host values seen lately: nearly every request repeats one of a few, and URL.canParse below
// costs more than the rest of this stage. Bounded, as the values are the client's.
const hostVerdicts = new Map<string, boolean>();
const MAX_HOST_VERDICTS = 256;

function isUsableHost(host: string): boolean {
  const known = hostVerdicts.get(host);
  if (known !== undefined) return known;
  const verdict = checkHost(host);
  if (hostVerdicts.size >= MAX_HOST_VERDICTS) hostVerdicts.clear();
  hostVerdicts.set(host, verdict);
  return verdict;
}

function checkHost(host: string): boolean {
  const match = HOST.exec(host);
  const [, ipv6, port] = match ?? [];
  const valid =
    match !== null &&
    (ipv6 === undefined || isIPv6(ipv6)) &&
    (port === undefined || port === '' || Number(port) <= 65_535) &&
    // What Yoga builds its request URL from: `1.2.3.999` matches the grammar, and is still no URL host.
    URL.canParse(`http://${host}/`);
  return valid;
}

/** Every Host line of the request, as sent: node:http keeps only the first in `headers`. */
function hostLines(req: IncomingMessage): string[] {
  const lines: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]?.toLowerCase() === 'host') lines.push(req.rawHeaders[i + 1] ?? '');
  }
  return lines;
}

/**
 * Why the gateway cannot serve a request's target or Host, or null when it can. Served: one Host (none only in
 * HTTP/1.0) that is a host name or address with an optional port, and a target in origin form (a path starting
 * with one `/`, then an optional query) of at most MAX_TARGET_BYTES, whose `%` escapes are well-formed. So the
 * URL the API layers build from the two is always a URL, on this gateway, with the target's path: the absolute
 * form (`GET http://x/pets`), `*`, or a Host carrying a path (`127.0.0.1/graphql?`) cannot change what answers.
 */
export function requestTargetProblem(req: IncomingMessage): ApiError | null {
  const hosts = hostLines(req);
  if (hosts.length > 1) return apiError('hostRepeated', { count: hosts.length });
  if (hosts.length === 0 && req.httpVersion !== '1.0') return apiError('hostMissing');
  if (hosts[0] !== undefined && !isUsableHost(hosts[0])) return apiError('hostInvalid', { host: hosts[0] });

  const target = req.url ?? '';
  if (Buffer.byteLength(target) > MAX_TARGET_BYTES) {
    return apiError('targetTooLong');
  }
  if (!target.startsWith('/') || target.startsWith('//')) {
    return apiError('targetNotPath', { target: target.slice(0, 100) });
  }
  if (/%(?![0-9A-Fa-f]{2})/.test(target)) {
    return apiError('targetBadEscape');
  }
  return null;
}

/**
 * The pipeline's stage for it: answers a request it cannot serve (and resolves true) with 400 (414 for a long
 * target) and the Error object, counted by the rate limit like any request, before anything builds a URL from it.
 */
export function createTargetCheck(
  countRefusal: (
    request: Request,
    socketAddress: string | undefined,
    refusal: ApiError,
  ) => Promise<CountedRefusal>,
) {
  // A request it can serve is handed on at once, without a promise: that is every request but the refused.
  return function refuseUnservable(req: IncomingMessage, res: ServerResponse): false | Promise<true> {
    const problem = requestTargetProblem(req);
    return problem ? refuse(req, res, problem) : false;
  };

  async function refuse(req: IncomingMessage, res: ServerResponse, problem: ApiError): Promise<true> {
    nameOperation(req, 'other', 'unservable target');
    // What identifies the caller (X-API-Key, X-Forwarded-For) is in the headers; the URL is what is wrong.
    const headers = new Headers();
    for (const [name, values] of Object.entries(req.headersDistinct)) {
      for (const value of values ?? []) headers.append(name, value);
    }
    const { error, headers: answerHeaders } = await countRefusal(
      new Request('http://localhost/', { headers }),
      req.socket.remoteAddress,
      problem,
    );
    sendError(res, error, answerHeaders);
    return true;
  }
}
