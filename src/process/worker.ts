// A worker of the cluster (WORKERS > 1): serves on the port it shares with the other workers. The primary has
// prepared the database, keeps the rate-limit counters (without Redis) and gathers the metrics.
import type { Config } from '../config/index.ts';
import { openDatabase } from '../db/client.ts';
import type { Logger } from '../observability/logger.ts';
import { serve } from './serve.ts';
import { CLOSING_MS, stopOnSignals } from './signals.ts';

export async function runWorker(config: Config, logger: Logger): Promise<void> {
  const db = await openDatabase(config.database.url, { timeouts: config.databaseTimeouts });
  const gateway = await serve(config, db, logger);
  logger.info({ url: gateway.url, metricsUrl: gateway.metricsUrl }, 'worker listening');
  // The primary signals each worker to drain, and Ctrl-C (or a service manager stopping the whole process
  // group) signals the workers too: signals after the first change nothing here. A second signal to the
  // primary ends it at once, and the workers with it (node:cluster exits a worker that loses its primary).
  stopOnSignals(logger, gateway.stop, {
    secondSignal: 'ignored',
    deadlineMs: config.shutdownDelayMs + config.shutdownTimeoutMs + CLOSING_MS,
  });
}
