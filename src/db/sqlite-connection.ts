import type { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import type Sqlite from 'better-sqlite3';

/**
 * Applies the gateway's settings to each SQLite connection Prisma's adapter opens, on the connection itself.
 * Issued through Prisma instead, they made start-up run queries, which loads and compiles Prisma's query compiler
 * (WebAssembly) in a process that may stay idle, and its memory before the first request (docs/performance.md,
 * "Memory").
 * Per connection rather than once: a connection opened again after `$disconnect` gets them too.
 */
export function withConnectionSettings(
  factory: PrismaBetterSqlite3,
  busyTimeoutMs: number,
): PrismaBetterSqlite3 {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const { client } = adapter as unknown as { client: Sqlite.Database };
    // WAL lets readers run beside the writer; NORMAL is durable across process crashes in WAL mode. The busy
    // timeout is how long a write waits for another process's write lock before it fails (SQLITE_BUSY: UNAVAILABLE).
    // `exec`, not `pragma`: the statement cache (statement-cache.ts) replaces the connection's `prepare`.
    client.exec(
      `PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = ${Math.trunc(busyTimeoutMs)}; PRAGMA foreign_keys = ON;`,
    );
    // The list planner's cursors (graphql/plan/dialects.ts): the base64 of what Pothos encodes, `GPC:I:<id>`.
    client.function('gateway_cursor', { deterministic: true, safeIntegers: true }, (id: unknown) =>
      id === null ? null : Buffer.from(`GPC:I:${id}`).toString('base64'),
    );
    return adapter;
  };
  return factory;
}
