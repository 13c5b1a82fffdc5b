import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from '../contract/error-response.ts';
import { apiError } from '../contract/errors.ts';
import type { Database } from '../db/client.ts';
import type { Logger } from '../observability/logger.ts';
import { nameOperation } from '../observability/request-context.ts';
import type { CounterStore } from '../ratelimit/counters/counter.ts';

/**
 * A dependency's state: resolves when it answers (with a note when the gateway serves without it, degraded),
 * rejects when the gateway cannot serve.
 */
export interface ReadinessCheck {
  name: string;
  check(): Promise<string | undefined>;
}

export type OpsRoute = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/**
 * A readiness check that has not answered by then counts as failed: a balancer's health check must get its
 * answer (in about 2 s at most) while a dependency stalls.
 */
export const READINESS_CHECK_TIMEOUT_MS = 1500;

/**
 * Operational endpoints, answered before the API layers (not rate-limited): /healthz says the process is up,
 * /readyz that every dependency answers and the process is not `draining`; `routes` adds more by exact path
 * (/metrics, /docs).
 */
export function createOpsRoutes(
  checks: ReadinessCheck[],
  routes: Record<string, OpsRoute>,
  logger: Logger,
  draining: () => boolean,
  checkTimeoutMs = READINESS_CHECK_TIMEOUT_MS,
) {
  const table: Record<string, OpsRoute> = {
    '/healthz': (_req, res) => sendJson(res, 200, { status: 'ok' }),
    '/readyz': async (_req, res) => {
      // Told at once, without waiting on the dependencies: the balancer must stop sending before this stops.
      if (draining()) return sendJson(res, 503, { status: 'draining' });
      const results = await Promise.all(
        checks.map(async ({ name, check }) => {
          try {
            const degraded = await withinTime(check(), checkTimeoutMs);
            if (degraded === TIMED_OUT) {
              logger.warn({ check: name }, `readiness check gave no answer within ${checkTimeoutMs} ms`);
              return { name, ready: false, state: 'timed out' };
            }
            return { name, ready: true, state: degraded ? `degraded: ${degraded}` : 'ok' };
          } catch (error) {
            // The detail (host names, driver messages) goes to the log, not to a public endpoint.
            logger.warn({ check: name, error: String(error) }, 'readiness check failed');
            return { name, ready: false, state: 'unavailable' };
          }
        }),
      );
      const ready = results.every((result) => result.ready);
      const degraded = results.some((result) => result.state !== 'ok');
      sendJson(res, ready ? 200 : 503, {
        status: ready ? (degraded ? 'degraded' : 'ready') : 'unavailable',
        checks: Object.fromEntries(results.map(({ name, state }) => [name, state])),
      });
    },
    ...routes,
  };
  return answerRoutes(table);
}

/**
 * Answers the requests for a path of `table` (GET and HEAD; 405 otherwise), resolving true; false at once, without
 * a promise, for any other path: every API request passes here.
 */
export function answerRoutes(table: Record<string, OpsRoute>) {
  const routes = new Map(Object.entries(table));
  return function handleOps(req: IncomingMessage, res: ServerResponse): false | Promise<true> {
    const target = req.url ?? '';
    const query = target.indexOf('?');
    const path = query < 0 ? target : target.slice(0, query);
    const route = routes.get(path);
    return route ? answer(route, path, req, res) : false;
  };
}

async function answer(
  route: OpsRoute,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<true> {
  nameOperation(req, 'ops', path);
  if (req.method === 'GET' || req.method === 'HEAD') await route(req, res);
  else
    sendError(res, apiError('readOnlyPath', { path }), {
      allow: 'GET, HEAD',
    });
  return true;
}

export const databaseCheck = (db: Database): ReadinessCheck => ({
  name: 'database',
  check: async () => {
    await db.ping();
    return undefined;
  },
});

/**
 * The in-process and cluster-primary stores are always there; while Redis is unreachable the layer fails open
 * (a local limiter per process, degraded) or closed (not ready).
 */
export const rateLimitStoreCheck = (counters: CounterStore): ReadinessCheck => ({
  name: 'rateLimitStore',
  check: async () => {
    const status = counters.status();
    if (status.store !== 'redis' || status.connected) return undefined;
    if (status.onFailure === 'closed')
      throw new Error('Redis is unreachable; rate-limited requests are refused');
    return 'Redis is unreachable; each process enforces its own in-memory limits until it is back';
  },
});

const TIMED_OUT = Symbol('timed out');

function withinTime<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(resolve, ms, TIMED_OUT);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  sendBytes(
    res,
    status,
    { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    JSON.stringify(body),
  );
}

/**
 * With its Content-Length, so that a HEAD gets the headers a GET does (node:http leaves a HEAD's body out, and
 * without a length it would close the connection instead of keeping it).
 */
export function sendBytes(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: string | Buffer,
) {
  res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}
