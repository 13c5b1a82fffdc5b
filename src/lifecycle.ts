// The start and the end of a gateway process, as its log and its signals see them: the single process, the
// cluster's primary and its workers alike.
import type { Config } from './config.ts';
import { redact } from './db/target.ts';
import type { Logger } from './observability/logger.ts';

/** The gateway's first log lines, once it serves. */
export function announce(logger: Logger, config: Config, url: string, applied: string[]) {
  const workers = config.workers > 1 ? `, ${config.workers} workers` : '';
  logger.info(
    `Pet Store Gateway on ${url} (database ${redact(config.database.url)}, ${applied.length} migration(s) applied${workers})`,
  );
  logger.info(`GraphQL and GraphiQL: ${url}/graphql; REST reference: ${url}/docs`);
}

/**
 * On the first SIGTERM or SIGINT (or call of the function answered), runs `stop` and exits with
 * `process.exitCode` (0 unless `stop` set it). A second signal exits at once, unless `secondSignal` is
 * 'ignored'.
 */
export function stopOnSignals(
  logger: Logger,
  stop: () => Promise<void>,
  { secondSignal = 'exits' }: { secondSignal?: 'exits' | 'ignored' } = {},
) {
  let stopping = false;
  const begin = async (details: object) => {
    if (stopping) return;
    stopping = true;
    logger.info(details, 'shutting down: finishing requests in flight');
    await stop();
    logger.info('stopped');
    process.exit();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping && secondSignal === 'exits') {
      logger.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    void begin({ signal });
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return begin;
}
