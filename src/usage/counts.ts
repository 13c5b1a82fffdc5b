import type { Db } from '../db/client.ts';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
/** The usage page's two series: a minute's buckets for the last hour, an hour's for the last 7 days. */
export const MINUTES_KEPT = 60;
export const HOURS_KEPT = 7 * 24;
// Operation names are the client's to choose: past this many in one hour, a key's others count as one.
const MAX_OPERATIONS_PER_HOUR = 50;
const FLUSH_EVERY_MS = 1000;
const SWEEP_EVERY_MS = 10 * MINUTE_MS;

export type Span = 'minute' | 'hour';

/** One bucket's count of one thing. */
export interface UsageRow {
  apiKeyId: bigint;
  span: Span;
  startsAt: number;
  metric: string;
  count: number;
}

/** Where every process adds its counts and reads everyone's: the database, or Redis when configured. */
export interface UsageStore {
  /** Adds the counts; rejects when none of them could be added (they are then kept for the next time). */
  add(rows: readonly UsageRow[]): Promise<void>;
  /** A key's rows from `firstMinute` (minute buckets) and `firstHour` (hour buckets) on. */
  rows(keyId: bigint, firstMinute: number, firstHour: number): Promise<UsageRow[]>;
  /** Deletes buckets older than these; answers how many rows went (Redis expires them itself). */
  sweep(firstMinute: number, firstHour: number): Promise<number>;
  close(): Promise<void>;
}

/** The `UsageCount` table: one upsert per row, atomic whichever process adds. */
export function databaseUsageStore(prisma: Db): UsageStore {
  return {
    async add(rows) {
      const failures = await Promise.allSettled(
        rows.map(({ apiKeyId, span, startsAt, metric, count }) => {
          const id = { apiKeyId, span, startsAt: new Date(startsAt), metric };
          return prisma.usageCount.upsert({
            where: { apiKeyId_span_startsAt_metric: id },
            create: { ...id, count },
            update: { count: { increment: count } },
          });
        }),
      );
      const failed = failures.filter((result) => result.status === 'rejected');
      if (failed.length > 0) throw new PartlyAdded(failures.map((result) => result.status === 'fulfilled'));
    },
    async rows(keyId, firstMinute, firstHour) {
      const found = await prisma.usageCount.findMany({
        where: { apiKeyId: keyId, startsAt: { gte: new Date(Math.min(firstMinute, firstHour)) } },
      });
      return found
        .map((row) => ({ ...row, span: row.span as Span, startsAt: row.startsAt.getTime() }))
        .filter((row) => row.startsAt >= (row.span === 'minute' ? firstMinute : firstHour));
    },
    async sweep(firstMinute, firstHour) {
      const { count } = await prisma.usageCount.deleteMany({
        where: {
          OR: [
            { span: 'minute', startsAt: { lt: new Date(firstMinute) } },
            { span: 'hour', startsAt: { lt: new Date(firstHour) } },
          ],
        },
      });
      return count;
    },
    close: () => Promise.resolve(),
  };
}

/** Some rows of a batch were added and some not: `added[i]` says which. */
export class PartlyAdded extends Error {
  constructor(readonly added: boolean[]) {
    super('some usage counts could not be added');
  }
}

/** How one answered request of a key counts. */
export interface UsageEvent {
  keyId: bigint;
  status: number;
  api: string;
  operation: string;
  /** Why a 429 was answered: `minute`, `day`, `banned`, `introspection`, `operation` (a per-field limit or the subscription cap). */
  refusal?: string;
}

export interface UsageSeriesPoint {
  startsAt: number;
  requests: number;
  /** 429s by kind. */
  refused: Record<string, number>;
  clientErrors: number;
  serverErrors: number;
}

export interface UsageCounts {
  minutes: UsageSeriesPoint[];
  hours: UsageSeriesPoint[];
  /** The last 7 days' operations, most requested first (at most 10). */
  topOperations: { api: string; operation: string; requests: number }[];
}

const bucketOf = (at: number, span: Span) => {
  const size = span === 'minute' ? MINUTE_MS : HOUR_MS;
  return Math.floor(at / size) * size;
};

/**
 * Requests per API key, counted in this process and added to the shared store every second (the database's
 * `UsageCount` table, or Redis), so that every process and instance shares them; reads add this process's pending
 * counts first. Past buckets are swept: at most an hour of minutes and 7 days of hours per active key are kept.
 */
export function createUsageCounter(store: UsageStore, { now = Date.now }: { now?: () => number } = {}) {
  // key -> pending count; key = `${keyId}|${span}|${startsAt}|${metric}`.
  let pending = new Map<string, number>();
  const operationsSeen = new Map<string, Set<string>>();
  let flushing: Promise<void> = Promise.resolve();

  const add = (keyId: bigint, span: Span, startsAt: number, metric: string) => {
    const key = `${keyId}|${span}|${startsAt}|${metric}`;
    pending.set(key, (pending.get(key) ?? 0) + 1);
  };

  function record({ keyId, status, api, operation, refusal }: UsageEvent) {
    const at = now();
    const outcome =
      status === 429
        ? `429 ${refusal ?? 'minute'}`
        : status >= 500
          ? '5xx'
          : status >= 400
            ? '4xx'
            : undefined;
    for (const span of ['minute', 'hour'] as const) {
      const startsAt = bucketOf(at, span);
      add(keyId, span, startsAt, 'requests');
      if (outcome) add(keyId, span, startsAt, outcome);
    }
    const hour = bucketOf(at, 'hour');
    const seenKey = `${keyId}|${hour}`;
    let seen = operationsSeen.get(seenKey);
    if (!seen) {
      // The previous hours' sets are no longer needed.
      if (operationsSeen.size > 10_000) operationsSeen.clear();
      seen = new Set();
      operationsSeen.set(seenKey, seen);
    }
    const name = `${api} ${operation}`;
    if (!seen.has(name) && seen.size < MAX_OPERATIONS_PER_HOUR) seen.add(name);
    add(keyId, 'hour', hour, seen.has(name) ? `op ${name}` : 'op other other');
  }

  /** Adds the pending counts to the store; what could not be added is kept for the next flush. */
  function flush(): Promise<void> {
    flushing = flushing.then(async () => {
      if (pending.size === 0) return;
      const batch = [...pending];
      pending = new Map();
      const rows = batch.map(([key, count]) => {
        const [keyId, span, startsAt, metric] = key.split('|') as [string, Span, string, string];
        return { apiKeyId: BigInt(keyId), span, startsAt: Number(startsAt), metric, count };
      });
      try {
        await store.add(rows);
      } catch (error) {
        const added = error instanceof PartlyAdded ? error.added : [];
        batch.forEach(([key, count], i) => {
          if (!added[i]) pending.set(key, (pending.get(key) ?? 0) + count);
        });
      }
    });
    return flushing;
  }

  /** Deletes the buckets past the ones the page shows. */
  function sweep(): Promise<number> {
    const at = now();
    return store.sweep(
      bucketOf(at, 'minute') - MINUTES_KEPT * MINUTE_MS,
      bucketOf(at, 'hour') - HOURS_KEPT * HOUR_MS,
    );
  }

  /** A key's counts: every process's flushed ones, and this process's pending ones. */
  async function read(keyId: bigint): Promise<UsageCounts> {
    await flush();
    const at = now();
    const firstMinute = bucketOf(at, 'minute') - (MINUTES_KEPT - 1) * MINUTE_MS;
    const firstHour = bucketOf(at, 'hour') - (HOURS_KEPT - 1) * HOUR_MS;
    const rows = await store.rows(keyId, firstMinute, firstHour);
    const series = (first: number, size: number, length: number) =>
      Array.from({ length }, (_, i) => ({
        startsAt: first + i * size,
        requests: 0,
        refused: {} as Record<string, number>,
        clientErrors: 0,
        serverErrors: 0,
      }));
    const minutes = series(firstMinute, MINUTE_MS, MINUTES_KEPT);
    const hours = series(firstHour, HOUR_MS, HOURS_KEPT);
    const operations = new Map<string, number>();
    for (const row of rows) {
      const { startsAt } = row;
      if (row.span === 'hour' && row.metric.startsWith('op ')) {
        const name = row.metric.slice(3);
        operations.set(name, (operations.get(name) ?? 0) + row.count);
        continue;
      }
      const point =
        row.span === 'minute'
          ? minutes[(startsAt - firstMinute) / MINUTE_MS]
          : hours[(startsAt - firstHour) / HOUR_MS];
      if (!point) continue;
      if (row.metric === 'requests') point.requests += row.count;
      else if (row.metric === '4xx') point.clientErrors += row.count;
      else if (row.metric === '5xx') point.serverErrors += row.count;
      else if (row.metric.startsWith('429 ')) {
        const kind = row.metric.slice(4);
        point.refused[kind] = (point.refused[kind] ?? 0) + row.count;
      }
    }
    const topOperations = [...operations]
      .sort(([, a], [, b]) => b - a)
      .slice(0, 10)
      .map(([name, requests]) => {
        const [api = '', operation = ''] = name.split(' ');
        return { api, operation, requests };
      });
    return { minutes, hours, topOperations };
  }

  const flusher = setInterval(() => void flush(), FLUSH_EVERY_MS);
  flusher.unref();
  const sweeper = setInterval(() => void sweep().catch(() => {}), SWEEP_EVERY_MS);
  sweeper.unref();

  /** Stops counting and adds what is pending. */
  async function close() {
    clearInterval(flusher);
    clearInterval(sweeper);
    await flush();
    await store.close();
  }

  return { record, flush, read, sweep, close };
}

export type UsageCounter = ReturnType<typeof createUsageCounter>;
