import type { Config } from '../config/index.ts';
import type { Logger } from '../observability/logger.ts';
import { announce } from './announce.ts';
import { prepareDatabase } from './prepare-database.ts';
import { serve } from './serve.ts';
import { CLOSING_MS, stopOnSignals } from './signals.ts';

/** WORKERS=1 (the default): one process migrates, seeds a first run, and serves until SIGTERM or SIGINT. */
export async function runSingle(config: Config, logger: Logger): Promise<void> {
  const { applied, db } = await prepareDatabase(config, logger);
  const gateway = await serve(config, db, logger);
  // Handled before the announcement: whoever reads it may stop the gateway at once, and the line can reach them
  // (it is written off the event loop) before the next statement here has run.
  stopOnSignals(logger, gateway.stop, {
    deadlineMs: config.shutdownDelayMs + config.shutdownTimeoutMs + CLOSING_MS,
  });
  announce(logger, config, gateway.url, applied, gateway.metricsUrl);
}
