import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { type DatabaseTarget, parseDatabaseUrl } from '../config/database-url.ts';
import { PrismaClient as PostgresClient } from '../generated/postgresql/client.ts';
import { PrismaClient as SqliteClient } from '../generated/sqlite/client.ts';

// Both generated clients have the same model API (prisma/postgresql is derived from prisma/schema.prisma);
// the SQLite client's type is the one the rest of the code is written against.
export type Db = SqliteClient;

export interface Database {
  readonly prisma: Db;
  readonly target: DatabaseTarget;
  /** PostgreSQL's connection pool, for its gauges in /metrics; SQLite has one in-process connection. */
  readonly pool?: PoolCounts;
  /**
   * A number that changes whenever a change to the store may have been committed since it was last read,
   * by any connection of any process; a check of about a microsecond. Only SQLite has one: on PostgreSQL
   * the same question costs a round trip to the server.
   */
  readonly storeVersion?: () => number;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type PoolCounts = Pick<pg.Pool, 'totalCount' | 'idleCount' | 'waitingCount'>;

export interface DatabaseOptions {
  /** Called with each SQL statement Prisma sends (tests count them to catch N+1 queries). */
  onQuery?: (sql: string) => void;
}

export async function openDatabase(url: string, options: DatabaseOptions = {}): Promise<Database> {
  const target = parseDatabaseUrl(url);
  const log = options.onQuery ? [{ emit: 'event' as const, level: 'query' as const }] : [];
  const { prisma, pool, watcher } =
    target.provider === 'sqlite'
      ? { prisma: await openSqlite(target.file, log), pool: undefined, watcher: watchSqlite(target.file) }
      : { ...openPostgres(target, log), watcher: undefined };
  if (options.onQuery) {
    const onQuery = options.onQuery;
    (prisma as unknown as QueryEvents).$on('query', (event) => onQuery(event.query));
  }
  return {
    prisma,
    target,
    pool,
    storeVersion: watcher?.storeVersion,
    ping: async () => {
      await prisma.$queryRawUnsafe('SELECT 1');
    },
    close: async () => {
      watcher?.close();
      await prisma.$disconnect();
    },
  };
}

type QueryLog = { emit: 'event'; level: 'query' }[];
type QueryEvents = { $on(event: 'query', listener: (event: { query: string }) => void): void };

async function openSqlite(file: string, log: QueryLog): Promise<Db> {
  const adapter = withSerializedTransactions(new PrismaBetterSqlite3({ url: `file:${file}` }));
  const prisma = new SqliteClient({ adapter, log });
  // WAL lets readers run beside the writer; NORMAL is durable across process crashes in WAL mode.
  await prisma.$queryRawUnsafe('PRAGMA journal_mode = WAL');
  await prisma.$executeRawUnsafe('PRAGMA synchronous = NORMAL');
  await prisma.$executeRawUnsafe('PRAGMA busy_timeout = 5000');
  await prisma.$executeRawUnsafe('PRAGMA foreign_keys = ON');
  return prisma;
}

/**
 * SQLite's data_version, read on a connection of its own that never writes: it changes with every commit of
 * any other connection, this process's Prisma connection included.
 */
function watchSqlite(file: string) {
  const watcher = new Sqlite(file, { readonly: true, fileMustExist: true });
  const dataVersion = watcher.prepare<[], number>('PRAGMA data_version').pluck();
  return { storeVersion: () => dataVersion.get() as number, close: () => watcher.close() };
}

type SqliteAdapter = Awaited<ReturnType<PrismaBetterSqlite3['connect']>>;
type SqliteTransaction = Awaited<ReturnType<SqliteAdapter['startTransaction']>>;

/**
 * Two fixes to Prisma's better-sqlite3 adapter, which has options for neither.
 *
 * One connection serves every statement, and the adapter's lock only keeps transactions from overlapping each
 * other. A statement outside any transaction that runs while one is open (another request's, during one of the
 * transaction's awaits) runs inside it: it reads its uncommitted writes, and its own write is undone by its
 * rollback after the caller was told it succeeded. So here such statements wait until the open transaction ends.
 *
 * Several processes on one SQLite file (WORKERS > 1) need transactions that take the write lock as they begin.
 * The adapter begins them DEFERRED: one that reads first holds a read snapshot, and its first write then fails at
 * once with SQLITE_BUSY (which Prisma reports as a timeout) if another process has written since; the busy
 * timeout cannot help, since waiting would not renew the snapshot. BEGIN IMMEDIATE instead waits (up to the busy
 * timeout) for the write lock before anything is read: the adapter's empty deferred transaction is ended and an
 * immediate one begun in its place, with no statement of anyone else's in between.
 */
function withSerializedTransactions(factory: PrismaBetterSqlite3): PrismaBetterSqlite3 {
  const connect = factory.connect.bind(factory);
  factory.connect = async (): Promise<SqliteAdapter> => {
    const adapter = await connect();
    /** Settles when the transaction that is open (or beginning) ends. */
    let open: Promise<void> | undefined;

    const outsideTransactions = <Result>(run: (query: Query) => Promise<Result>) => {
      const whenNoneOpen = async (query: Query): Promise<Result> => {
        while (open) await open;
        return run(query);
      };
      return (query: Query) => (open ? whenNoneOpen(query) : run(query));
    };
    adapter.queryRaw = outsideTransactions(adapter.queryRaw.bind(adapter));
    adapter.executeRaw = outsideTransactions(adapter.executeRaw.bind(adapter));

    const startDeferred = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => {
      while (open) await open;
      let end = () => {};
      open = new Promise((resolve) => {
        end = () => {
          open = undefined;
          resolve();
        };
      });
      let transaction: SqliteTransaction;
      try {
        transaction = await startDeferred(isolationLevel);
      } catch (error) {
        end();
        throw error;
      }
      const commit = transaction.commit.bind(transaction);
      const rollback = transaction.rollback.bind(transaction);
      transaction.commit = () => commit().finally(end);
      transaction.rollback = () => rollback().finally(end);
      try {
        await transaction.executeRaw({ sql: 'ROLLBACK', args: [], argTypes: [] });
        await transaction.executeRaw({ sql: 'BEGIN IMMEDIATE', args: [], argTypes: [] });
      } catch (error) {
        await transaction.rollback();
        throw error;
      }
      return transaction;
    };
    return adapter;
  };
  return factory;
}

type Query = Parameters<SqliteAdapter['queryRaw']>[0];

function openPostgres(target: Extract<DatabaseTarget, { provider: 'postgresql' }>, log: QueryLog) {
  // The pool is made here rather than by the adapter so that /metrics can read its counts.
  const pool = new pg.Pool({ connectionString: target.connectionString, max: target.poolSize });
  const adapter = new PrismaPg(pool, {
    disposeExternalPool: true,
    ...(target.schema && { schema: target.schema }),
  });
  return { prisma: new PostgresClient({ adapter, log }) as unknown as Db, pool };
}
