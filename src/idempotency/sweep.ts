import type { Db } from '../db/client.ts';
import type { Logger } from '../observability/logger.ts';
import { sweepExpiredRecords } from './records.ts';

const EVERY_MS = 60 * 60 * 1000;

/**
 * Deletes expired idempotency records once an hour, off the request path (an expired record is already
 * ignored when read, so the sweep only frees space). Every serving process sweeps; deleting twice is harmless.
 * Returns the function that stops it.
 */
export function sweepPeriodically(
  prisma: Db,
  {
    now,
    log,
    everyMs = EVERY_MS,
  }: { now: () => number; log: Pick<Logger, 'info' | 'warn'>; everyMs?: number },
): () => void {
  const timer = setInterval(() => {
    sweepExpiredRecords(prisma, new Date(now())).then(
      (count) => count > 0 && log.info({ count }, 'expired idempotency records deleted'),
      (error: unknown) => log.warn({ error: String(error) }, 'expired idempotency records not deleted'),
    );
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
