// WORKERS > 1: this process is a node:cluster primary. It prepares the database once, keeps the workers'
// rate-limit counters (without Redis) and gathers their metrics, forks the workers (which share the listening
// port), replaces a worker that dies, and on SIGTERM or SIGINT drains them all before it exits.
import cluster, { type Worker } from 'node:cluster';
import { realpathSync } from 'node:fs';
import { gatewayWorkerEnv } from '../cluster/role.ts';
import type { Config } from '../config/index.ts';
import { relayChanges } from '../events/cluster.ts';
import { httpUrl } from '../http/listener.ts';
import { serveClusterMetrics } from '../observability/cluster-metrics.ts';
import type { Logger } from '../observability/logger.ts';
import { serveCounterStore } from '../ratelimit/counters/cluster.ts';
import { openMemoryCounterStore } from '../ratelimit/counters/memory.ts';
import { announce } from './announce.ts';
import { prepareDatabase } from './prepare-database.ts';
import { CLOSING_MS, stopOnSignals } from './signals.ts';
import { relayWorkerOutput, WORKER_STDIO } from './worker-output.ts';

// A worker that dies before it ever listened failed to start (however slowly a loaded machine starts it). So
// many failed starts in a row are a fault that more workers will not cure (the port is taken, the database
// unreachable): the primary gives up.
const FAILED_STARTS_BEFORE_GIVING_UP = 3;
// Past SHUTDOWN_DELAY_MS + SHUTDOWN_TIMEOUT_MS a draining worker has CLOSING_MS to close Redis and the
// database, and exits then whatever it waits for; a worker still running this much later is killed, and the
// primary exits by the second margin. Both stay under the 5 s that docs/deploy.md promises.
const KILL_AFTER_MS = CLOSING_MS + 500;
const EXIT_AFTER_MS = CLOSING_MS + 1500;

export async function runPrimary(config: Config, logger: Logger): Promise<void> {
  const { applied, db } = await prepareDatabase(config, logger);
  await db.close();
  if (!config.rateLimit.redisUrl) {
    serveCounterStore(openMemoryCounterStore());
    relayChanges(logger);
  }
  serveClusterMetrics(config.metricsReuseMs);

  const workers = new Set<Worker>();
  const relays = new Set<Promise<void>>();
  // The primary's own build, by its real path: `dist` may point at a newer build by the time a worker is forked.
  cluster.setupPrimary({ stdio: WORKER_STDIO, exec: realpathSync(process.argv[1] as string) });
  const fork = () => {
    const worker = cluster.fork(gatewayWorkerEnv);
    workers.add(worker);
    const relay = relayWorkerOutput(worker, logger).finally(() => relays.delete(relay));
    relays.add(relay);
  };
  const started = new WeakSet<Worker>();
  let stopping = false;
  let allExited = () => {};

  const stop = async () => {
    stopping = true;
    const exited = new Promise<void>((resolve) => {
      allExited = resolve;
    });
    if (workers.size === 0) allExited();
    for (const worker of workers) worker.process.kill('SIGTERM');
    const drainingMs = config.shutdownDelayMs + config.shutdownTimeoutMs;
    const killer = setTimeout(() => {
      logger.error(
        `workers still running ${KILL_AFTER_MS} ms after their drain (${drainingMs} ms): killing them`,
      );
      process.exitCode = 1;
      for (const worker of workers) worker.process.kill('SIGKILL');
    }, drainingMs + KILL_AFTER_MS);
    await exited;
    clearTimeout(killer);
    // Their last lines (`stopped`) may still be on their way through the pipes.
    await Promise.all(relays);
  };
  const begin = stopOnSignals(logger, stop, {
    deadlineMs: config.shutdownDelayMs + config.shutdownTimeoutMs + EXIT_AFTER_MS,
  });
  if (config.domainsFile) {
    // Each worker reloads DOMAINS_CONFIG on SIGHUP (domains/registry.ts); an operator signals the primary.
    process.on('SIGHUP', () => {
      for (const worker of workers) worker.process.kill('SIGHUP');
    });
  }

  const listening = new Set<Worker>();
  cluster.on('listening', (worker, address) => {
    started.add(worker);
    // A worker listens on PORT first, then on METRICS_PORT when set: only its first event names the API's port.
    if (listening.size === config.workers || listening.has(worker)) return;
    listening.add(worker);
    if (listening.size === config.workers)
      announce(logger, config, httpUrl(config.host, address.port), applied);
  });

  let failedStarts = 0;
  cluster.on('exit', (worker, code, signal) => {
    workers.delete(worker);
    if (stopping) {
      logger.info({ worker: worker.process.pid, code, signal }, 'worker stopped');
      // A worker still starting has no handler yet: the drain signal ends it, with nothing in flight.
      if (code !== 0 && signal !== 'SIGTERM') process.exitCode = 1;
      if (workers.size === 0) allExited();
      return;
    }
    logger.error({ worker: worker.process.pid, code, signal }, 'worker exited unexpectedly');
    failedStarts = started.has(worker) ? 0 : failedStarts + 1;
    if (failedStarts < FAILED_STARTS_BEFORE_GIVING_UP) {
      fork();
      return;
    }
    logger.fatal(`${failedStarts} workers in a row died before they listened`);
    process.exitCode = 1;
    void begin({ reason: 'workers fail to start' });
  });

  for (let i = 0; i < config.workers; i++) fork();
}
