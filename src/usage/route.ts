import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import type { Caller } from '../contract/caller.ts';
import { sendError } from '../contract/error-response.ts';
import { ApiError } from '../contract/errors.ts';
import type { Db } from '../db/client.ts';
import type { UsageCounter, UsageCounts } from './counts.ts';

const uPlot = join(dirname(createRequire(import.meta.url).resolve('uplot/package.json')), 'dist');
const page = join(import.meta.dirname, 'page');

/** The page's files, by URL path: nothing else is read from disk, whatever the URL. */
const FILES: Record<string, string> = {
  '/usage/assets/usage.js': join(page, 'usage.js'),
  '/usage/assets/usage.css': join(page, 'usage.css'),
  '/usage/assets/uPlot.iife.min.js': join(uPlot, 'uPlot.iife.min.js'),
  '/usage/assets/uPlot.min.css': join(uPlot, 'uPlot.min.css'),
};
const HTML = join(page, 'index.html');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

// The page loads only from the gateway; uPlot sets inline styles on the chart.
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; form-action 'none'";

/** A key holder's standing, counting nothing: the rate-limit layer's `inspect`. */
export type InspectCaller = (
  request: Pick<Request, 'headers'>,
  socketAddress: string | undefined,
) => Promise<{
  caller: Extract<Caller, { kind: 'key' }>;
  windows: readonly [minute: QuotaWindow, day: QuotaWindow];
  maxSubscriptions: number;
  openSubscriptions: number;
}>;

/** What the page shows of a quota window; the rate-limit layer's windows carry this and more. */
interface QuotaWindow {
  limit: number;
  remaining: number;
  /** Epoch milliseconds. */
  resetsAt: number;
}

/** What GET /usage answers as JSON (and `viewer { usage }` and `apikey usage` show). */
export interface UsageReport extends UsageCounts {
  key: { id: string; name: string | null; prefix: string; plan: string; scopes: readonly string[] };
  quota: Record<'minute' | 'day', { limit: number; remaining: number; resetAt: string }>;
  subscriptions: { open: number; max: number };
}

export async function usageReport(
  prisma: Db,
  usage: UsageCounter,
  { caller, windows, maxSubscriptions, openSubscriptions }: Awaited<ReturnType<InspectCaller>>,
): Promise<UsageReport> {
  const [key, counts] = await Promise.all([
    prisma.apiKey.findUnique({ where: { id: caller.keyId }, select: { name: true, prefix: true } }),
    usage.read(caller.keyId),
  ]);
  const [minute, day] = windows;
  const window = ({ limit, remaining, resetsAt }: QuotaWindow) => ({
    limit,
    remaining,
    resetAt: new Date(resetsAt).toISOString(),
  });
  return {
    key: {
      id: String(caller.keyId),
      name: key?.name ?? null,
      prefix: key?.prefix ?? '',
      plan: caller.plan,
      scopes: caller.scopes,
    },
    quota: { minute: window(minute), day: window(day) },
    subscriptions: { open: openSubscriptions, max: maxSubscriptions },
    ...counts,
  };
}

/**
 * GET /usage: for a browser, the page where a key holder pastes a key and sees its usage; for an API client, that
 * usage as JSON, the key in X-API-Key (never in the URL, so never in a log line). Answered before the rate limit:
 * looking costs no quota. And the page's files, uPlot's from its npm package.
 */
export function createUsageRoutes({
  prisma,
  usage,
  inspect,
  prefersHtml,
}: {
  prisma: Db;
  usage: UsageCounter;
  inspect: InspectCaller;
  prefersHtml: (req: IncomingMessage) => boolean;
}) {
  // Each file is read on its first request, then kept.
  const serve = (file: string) => {
    let loaded: Buffer | undefined;
    return (req: IncomingMessage, res: ServerResponse) => {
      loaded ??= readFileSync(file);
      const body = loaded;
      res.writeHead(200, {
        'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
        'content-length': body.length,
        'content-security-policy': CONTENT_SECURITY_POLICY,
        'cache-control': 'public, max-age=300',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
  };
  const servePage = serve(HTML);

  async function answer(req: IncomingMessage, res: ServerResponse) {
    if (prefersHtml(req)) return servePage(req, res);
    const headers = new Headers();
    const presented = req.headers['x-api-key'];
    if (typeof presented === 'string') headers.set('x-api-key', presented);
    for (const name of ['x-forwarded-for'] as const) {
      const value = req.headers[name];
      if (typeof value === 'string') headers.set(name, value);
    }
    let report: UsageReport;
    try {
      report = await usageReport(prisma, usage, await inspect({ headers }, req.socket.remoteAddress));
    } catch (error) {
      if (error instanceof ApiError) return sendError(res, error, { vary: 'Accept' });
      throw error;
    }
    const body = JSON.stringify(report);
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
      vary: 'Accept, X-API-Key',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  return {
    '/usage': answer,
    ...Object.fromEntries(Object.entries(FILES).map(([path, file]) => [path, serve(file)])),
  };
}
