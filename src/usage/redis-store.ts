import { Redis } from 'ioredis';
import {
  HOUR_MS,
  HOURS_KEPT,
  MINUTE_MS,
  MINUTES_KEPT,
  type Span,
  type UsageRow,
  type UsageStore,
} from './counts.ts';

// A bucket outlives the page's window by one bucket, then Redis deletes it: nothing to sweep.
const KEEP_MS: Record<Span, number> = {
  minute: (MINUTES_KEPT + 1) * MINUTE_MS,
  hour: (HOURS_KEPT + 1) * HOUR_MS,
};

/**
 * Usage counts in Redis (REDIS_URL): one hash per key and bucket, `<prefix>:usage:<keyId>:<span>:<startsAt>`, its
 * fields the things counted. HINCRBY adds atomically whichever process adds; each bucket expires by itself.
 */
export function redisUsageStore({
  url,
  keyPrefix,
  commandTimeoutMs,
}: {
  url: string;
  keyPrefix: string;
  commandTimeoutMs: number;
}): UsageStore {
  // Counts may wait for a connection (while connecting), but no longer than a command may take.
  const client = new Redis(url, { maxRetriesPerRequest: 0, commandTimeout: commandTimeoutMs });
  // Errors are the callers' (a failed add is retried at the next flush); the client keeps reconnecting.
  client.on('error', () => {});
  const bucketKey = (keyId: bigint, span: Span, startsAt: number) =>
    `${keyPrefix}:usage:${keyId}:${span}:${startsAt}`;

  return {
    async add(rows) {
      // A pipeline, not MULTI: the counts need no atomicity, and one run saw an unhandled "Connection is
      // closed" while Redis was down, of which MULTI's own queued promises are the likely source.
      const pipeline = client.pipeline();
      for (const { apiKeyId, span, startsAt, metric, count } of rows) {
        const key = bucketKey(apiKeyId, span, startsAt);
        pipeline.hincrby(key, metric, count);
        pipeline.pexpireat(key, startsAt + KEEP_MS[span]);
      }
      await pipeline.exec();
    },
    async rows(keyId, firstMinute, firstHour) {
      const buckets: [Span, number][] = [
        ...Array.from({ length: MINUTES_KEPT }, (_, i): [Span, number] => [
          'minute',
          firstMinute + i * MINUTE_MS,
        ]),
        ...Array.from({ length: HOURS_KEPT }, (_, i): [Span, number] => ['hour', firstHour + i * HOUR_MS]),
      ];
      const pipeline = client.pipeline();
      for (const [span, startsAt] of buckets) pipeline.hgetall(bucketKey(keyId, span, startsAt));
      const answers = (await pipeline.exec()) ?? [];
      const rows: UsageRow[] = [];
      answers.forEach(([error, fields], i) => {
        if (error) throw error;
        const [span, startsAt] = buckets[i] as [Span, number];
        for (const [metric, count] of Object.entries(fields as Record<string, string>))
          rows.push({ apiKeyId: keyId, span, startsAt, metric, count: Number(count) });
      });
      return rows;
    },
    sweep: () => Promise.resolve(0),
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
