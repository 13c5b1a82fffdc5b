// One measurement: autocannon against one server, a warm-up first (discarded), then a fixed duration.
import type { IncomingHttpHeaders } from 'node:http';
import autocannon from 'autocannon';
import { withCpu } from './cpu.ts';

export interface Request {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

/** A kind of request; `next` gives each request its own target, so that no single row is cached. */
export interface Workload {
  next(): Request;
  /** Sees each response (the mixed row keeps the ids of the orders it placed, to cancel them). */
  onResponse?(status: number, body: string, sent?: { path: string; headers: Record<string, string> }): void;
  /** GraphQL reports errors in a 200 response: such bodies count as errors too. */
  graphql?: boolean;
}

export interface LoadSettings {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  headers: Record<string, string>;
}

export interface LoadResult {
  /** Responses received, failed or not. */
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors, timeouts, and GraphQL responses with errors. */
  errors: number;
  /** Count of each non-2xx status received, 304 aside. */
  non2xx: Record<string, number>;
  /** 304s received: the answer of a revalidation, which a workload that revalidates expects. */
  notModified: number;
  /** CPU the server spent per response (its process and workers), when measured with its pid. */
  cpuUsPerRequest?: number;
}

export async function measure(
  url: string,
  workload: Workload,
  settings: LoadSettings,
  pid?: number,
): Promise<LoadResult> {
  if (settings.warmupSeconds > 0) await fire(url, workload, settings, settings.warmupSeconds);
  const run = async () => summarize(await fire(url, workload, settings, settings.durationSeconds));
  return pid === undefined ? run() : withCpu(pid, run);
}

export function summarize(result: autocannon.Result): LoadResult {
  const non2xx = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {})
      .filter(([status]) => !status.startsWith('2') && status !== '304')
      .map(([status, { count }]) => [status, Number(count)]),
  );
  return {
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.mismatches,
    non2xx,
    notModified: Number(result.statusCodeStats?.['304']?.count ?? 0),
  };
}

/**
 * Runs a load for the given seconds, or for a number of requests (`{ amount }`); used directly as the background
 * load of the RSS soak and as the burst before the RSS reading.
 */
export function fire(
  url: string,
  workload: Workload,
  settings: LoadSettings,
  length: number | { amount: number },
) {
  const { onResponse } = workload;
  const headers = { ...settings.headers, 'content-type': 'application/json' };
  return autocannon({
    url,
    connections: settings.connections,
    ...(typeof length === 'number' ? { duration: length } : { amount: length.amount }),
    headers,
    requests: [
      {
        // Fresh headers each time: autocannon writes Content-Length into a headers object its requests share, so a
        // request without a body after one with a body would announce a body it does not send, and hang.
        setupRequest: (request, context: { path?: string }) => {
          const next = workload.next();
          context.path = next.path;
          return { ...request, ...next, headers: { ...headers, ...next.headers } };
        },
        ...(onResponse && {
          onResponse: (
            status: number,
            body: string,
            context: { path?: string },
            received: IncomingHttpHeaders | undefined,
          ) =>
            onResponse.call(workload, status, body, {
              path: context.path ?? '',
              headers: (received ?? {}) as Record<string, string>,
            }),
        }),
      },
    ],
    ...(workload.graphql ? { verifyBody: (body) => !String(body).includes('"errors"') } : {}),
  });
}
