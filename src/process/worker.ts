// A worker of the cluster (WORKERS > 1): serves on the port it shares with the other workers. The primary has
// prepared the database, keeps the rate-limit counters (without Redis) and gathers the metrics.
import type { Config } from '../config/index.ts';
import { openDatabase } from '../db/client.ts';
import type { Logger } from '../observability/logger.ts';
import { serve } from './serve.ts';
import { CLOSING_MS, stopOnSignals } from './signals.ts';

export async function runWorker(config: Config, logger: Logger): Promise<void> {
  const db = await openDatabase(config.database.url, { timeouts: config.databaseTimeouts });
  const serving = serve(config, db, logger);
  // The primary signals each worker to drain, and Ctrl-C (or a service manager stopping the whole process
  // group) signals the workers too: signals after the first change nothing here. A second signal to the
  // primary ends it at once, and the workers with it (node:cluster exits a worker that loses its primary).
  // Handled from before the port is open: the primary announces the gateway (and may be told to stop) as soon as
  // every worker listens, and a worker without a handler would die at the signal instead of draining.
  stopOnSignals(logger, async () => (await serving).stop(), {
    secondSignal: 'ignored',
    deadlineMs: config.shutdownDelayMs + config.shutdownTimeoutMs + CLOSING_MS,
  });
  const gateway = await serving;
  logger.info({ url: gateway.url, metricsUrl: gateway.metricsUrl }, 'worker listening');
}
