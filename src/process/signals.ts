import { type Logger, settleLog } from '../observability/logger.ts';

// How long the last log lines may take to reach stdout before the process exits without them.
const LOG_SETTLE_MS = 1000;

/**
 * After SHUTDOWN_DELAY_MS + SHUTDOWN_TIMEOUT_MS, the time a serving process has left to close Redis and the
 * database before it exits anyway; the cluster primary allows its workers a little more, then kills them.
 */
export const CLOSING_MS = 3000;

/**
 * On the first SIGTERM or SIGINT (or call of the function answered), runs `stop` and exits with
 * `process.exitCode` (0 unless `stop` set it). A second signal exits at once, unless `secondSignal` is
 * 'ignored'. Past `deadlineMs` after the first, the process exits (1) whatever `stop` still waits for: a
 * stalled database or Redis, or a stdout nobody reads, must not keep it running.
 */
export function stopOnSignals(
  logger: Logger,
  stop: () => Promise<void>,
  { secondSignal = 'exits', deadlineMs }: { secondSignal?: 'exits' | 'ignored'; deadlineMs: number },
) {
  let stopping = false;
  const exit = async (code?: number) => {
    if (code !== undefined) process.exitCode = code;
    // Without an argument: Node 20's process.exit(undefined) would reset the exit code to 0.
    if (await settleLog(logger, LOG_SETTLE_MS)) process.exit();
    // A log line still being written to a stdout nobody reads would hold process.exit for ever: the signal's
    // default action ends the process without waiting for it.
    process.removeAllListeners('SIGTERM');
    process.kill(process.pid, 'SIGTERM');
  };
  const begin = async (details: object) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      logger.error(`still stopping ${deadlineMs} ms after the signal: exiting`);
      void exit(1);
    }, deadlineMs - LOG_SETTLE_MS);
    logger.info(details, 'shutting down: finishing requests in flight');
    await stop();
    logger.info('stopped');
    await exit();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping && secondSignal === 'exits') {
      logger.warn({ signal }, 'second signal: exiting without waiting');
      void exit(1);
      return;
    }
    void begin({ signal });
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return begin;
}
