import { statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { isGatewayWorker } from '../cluster/role.ts';
import type { Database } from '../db/client.ts';
import { joinClusterMetrics } from './cluster-metrics.ts';
import type { RequestContext } from './request-context.ts';
import { reuseFor } from './reuse-for.ts';

// GraphQL operation names are chosen by clients: past this many distinct names, new ones are counted
// under "other" so that a client cannot grow the metrics without bound.
const MAX_OPERATION_NAMES = 200;

export interface MetricsOptions {
  /** Scrapes within this many milliseconds of the last gathering get its result (0: every scrape gathers). */
  reuseMs?: number;
  /** The clock of that reuse (tests move it instead of waiting). */
  now?: () => number;
}

/**
 * The gateway's Prometheus metrics, in a registry of its own: Node's process metrics, requests and their
 * latency by API, operation and status, rate-limit refusals, and the database's connections. In a worker
 * (WORKERS > 1) they are answered for all workers together.
 */
export function createMetrics(db: Database, { reuseMs = 0, now = Date.now }: MetricsOptions = {}) {
  const { registry, gatewayMetrics } = isGatewayWorker() ? joinClusterMetrics() : ownMetrics();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  const gatherings = new Counter({
    name: 'petstore_metrics_gatherings_total',
    help: 'Times /metrics gathered the metrics afresh; other scrapes got the last result (METRICS_REUSE_MS)',
    registers,
  });
  // Gathering costs milliseconds of CPU (over every worker with WORKERS > 1): many scrapes must not starve the API.
  const gather = reuseFor(
    reuseMs,
    () => {
      gatherings.inc();
      return gatewayMetrics();
    },
    now,
  );

  const labelNames = ['api', 'operation', 'status'] as const;
  const requests = new Counter({
    name: 'petstore_http_requests_total',
    help: 'HTTP requests answered, by API (graphql, rest, ops, other), operation and status',
    labelNames,
    registers,
  });
  const latency = new Histogram({
    name: 'petstore_http_request_duration_seconds',
    help: 'Time from receiving a request to the end of its response, by API, operation and status',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const refusals = new Counter({
    name: 'petstore_rate_limit_refusals_total',
    help: 'Requests refused by the rate limit (HTTP 429: RATE_LIMITED or KEY_BANNED), by API',
    labelNames: ['api'],
    registers,
  });
  const responseCache = new Counter({
    name: 'petstore_response_cache_total',
    help: 'Query operations the response cache looked up, by result (hit, miss)',
    labelNames: ['result'],
    registers,
  });
  const slowConsumers = new Counter({
    name: 'petstore_subscription_slow_consumers_total',
    help: 'Subscription streams ended SLOW_CONSUMER: their client fell behind the backlog limit',
    registers,
  });
  registerDatabaseGauges(db, registers);

  const operationNames = new Set<string>();
  const operationLabel = (name: string) => {
    if (operationNames.has(name)) return name;
    if (operationNames.size >= MAX_OPERATION_NAMES) return 'other';
    operationNames.add(name);
    return name;
  };

  return {
    /** Counts one answered request. */
    observe({ api, operation }: RequestContext, status: number, seconds: number) {
      const labels = { api, operation: operationLabel(operation), status };
      requests.inc(labels);
      latency.observe(labels, seconds);
      if (status === 429) refusals.inc({ api });
    },

    /** Counts one response-cache lookup. */
    observeCache(hit: boolean) {
      responseCache.inc({ result: hit ? 'hit' : 'miss' });
    },

    /** Counts one subscription stream ended for falling behind. */
    observeSlowConsumer() {
      slowConsumers.inc();
    },

    /** Answers GET /metrics in the Prometheus text format. */
    async respond(res: ServerResponse) {
      const body = await gather();
      // With its length, so a HEAD keeps the connection as a GET does.
      res.writeHead(200, {
        'content-type': registry.contentType,
        'cache-control': 'no-store',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

function ownMetrics() {
  const registry = new Registry();
  return { registry, gatewayMetrics: () => registry.metrics() };
}

function registerDatabaseGauges({ pool, target }: Database, registers: Registry[]) {
  if (target.provider === 'sqlite') {
    // SQLite runs in-process on one connection: what an operator watches is the disk it takes.
    new Gauge({
      name: 'petstore_db_sqlite_bytes',
      help: 'Size of the SQLite database on disk, by file (database, wal)',
      labelNames: ['file'],
      registers,
      // Every worker measures the same file.
      aggregator: 'max',
      collect() {
        this.set({ file: 'database' }, sizeOf(target.file));
        this.set({ file: 'wal' }, sizeOf(`${target.file}-wal`));
      },
    });
    return;
  }
  new Gauge({ name: 'petstore_db_pool_max', help: 'Size of the PostgreSQL connection pool', registers }).set(
    target.poolSize,
  );
  if (!pool) return;
  new Gauge({
    name: 'petstore_db_pool_connections',
    help: 'PostgreSQL pool connections, by state (in_use, idle)',
    labelNames: ['state'],
    registers,
    collect() {
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
      this.set({ state: 'idle' }, pool.idleCount);
    },
  });
  new Gauge({
    name: 'petstore_db_pool_waiting',
    help: 'Queries waiting for a free PostgreSQL pool connection',
    registers,
    collect() {
      this.set(pool.waitingCount);
    },
  });
}

const sizeOf = (path: string) => statSync(path, { throwIfNoEntry: false })?.size ?? 0;
