import type { Logger } from '../observability/logger.ts';

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
