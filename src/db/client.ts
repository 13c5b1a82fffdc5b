import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { type DatabaseTimeouts, DEFAULT_DATABASE_TIMEOUTS } from '../config/database.ts';
import { type DatabaseTarget, parseDatabaseUrl } from '../config/database-url.ts';
import { PrismaClient as PostgresClient } from '../generated/postgresql/client.ts';
import { PrismaClient as SqliteClient } from '../generated/sqlite/client.ts';
import { withSerializedTransactions } from './sqlite-adapter-patch.ts';
import { withConnectionSettings } from './sqlite-connection.ts';
import { statementNames, withStatementCache } from './statement-cache.ts';
import { observeStatements } from './statement-observer.ts';
import { type TableVersions, watchStoreVersion } from './store-version.ts';
import { postgresTableVersions, type ReadTableVersions, sqliteTableVersions } from './table-versions.ts';

// Both generated clients have the same model API (prisma/postgresql is derived from prisma/schema.prisma);
// the SQLite client's type is the one the rest of the code is written against.
export type Db = SqliteClient;

export interface Database {
  readonly prisma: Db;
  readonly target: DatabaseTarget;
  /** PostgreSQL's connection pool, for its gauges in /metrics; SQLite has one in-process connection. */
  readonly pool?: PoolCounts;
  /**
   * A number that changes whenever a change to the store may have been committed since it was last read, by
   * any connection of any process. Only SQLite has one: on PostgreSQL the same question costs a round trip.
   */
  readonly storeVersion?: () => number;
  /** SQLite's per-table change counters, read with the store version (src/db/store-version.ts). */
  readonly tableVersions?: () => TableVersions | undefined;
  /** Each table's change counter as committed now, by any process, on either database (table-versions.ts). */
  readonly readTableVersions: ReadTableVersions;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type PoolCounts = Pick<pg.Pool, 'totalCount' | 'idleCount' | 'waitingCount'>;

export interface DatabaseOptions {
  /** Called with each SQL statement as it is handed to the database driver (tests count them). */
  onQuery?: (sql: string) => void;
  timeouts?: DatabaseTimeouts;
}

// PostgreSQL ends a statement past the statement timeout itself; the client gives up this much later, when
// the server did not even answer that (stalled, or the network silently dropping packets).
const SERVER_SILENT_MARGIN_MS = 1000;

export async function openDatabase(url: string, options: DatabaseOptions = {}): Promise<Database> {
  const target = parseDatabaseUrl(url);
  const { onQuery, timeouts = DEFAULT_DATABASE_TIMEOUTS } = options;
  // Around the SQLite patch, not under it: a statement is reported when issued, even while the patch holds it back.
  const observed = <Factory extends PrismaBetterSqlite3 | PrismaPg>(factory: Factory) =>
    onQuery ? observeStatements(factory, onQuery) : factory;

  if (target.provider === 'sqlite') {
    const adapter = withSerializedTransactions(
      withStatementCache(
        withConnectionSettings(new PrismaBetterSqlite3({ url: `file:${target.file}` }), timeouts.statementMs),
      ),
    );
    // Nothing is asked of Prisma yet: its query compiler is loaded by the first query, as on PostgreSQL.
    const prisma = new SqliteClient({ adapter: observed(adapter) });
    const watcher = watchStoreVersion(target.file);
    return opened(prisma, target, {
      storeVersion: watcher.storeVersion,
      tableVersions: watcher.tableVersions,
      readTableVersions: sqliteTableVersions(watcher),
      close: () => watcher.close(),
    });
  }
  // The pool is made here rather than by the adapter so that /metrics can read its counts.
  const pool = new pg.Pool({
    connectionString: target.connectionString,
    max: target.poolSize,
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    query_timeout: timeouts.statementMs + SERVER_SILENT_MARGIN_MS,
  });
  // A connection that failed (reset, or stalled past a timeout) must not end the process: the pool drops it.
  pool.on('error', () => {});
  const adapter = new PrismaPg(pool, {
    disposeExternalPool: true,
    statementNameGenerator: statementNames(),
    ...(target.schema && { schema: target.schema }),
  });
  const prisma = new PostgresClient({ adapter: observed(adapter) }) as unknown as Db;
  return opened(prisma, target, { pool, readTableVersions: postgresTableVersions(pool, target.schema) });
}

function opened(
  prisma: Db,
  target: DatabaseTarget,
  extra: Pick<Database, 'pool' | 'storeVersion' | 'tableVersions' | 'readTableVersions'> & {
    close?: () => void;
  },
): Database {
  return {
    prisma,
    target,
    pool: extra.pool,
    storeVersion: extra.storeVersion,
    tableVersions: extra.tableVersions,
    readTableVersions: extra.readTableVersions,
    ping: async () => {
      await prisma.$queryRawUnsafe('SELECT 1');
    },
    close: async () => {
      extra.close?.();
      await prisma.$disconnect();
    },
  };
}
