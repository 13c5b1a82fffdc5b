import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient as PostgresClient } from '../generated/postgresql/client.ts';
import { PrismaClient as SqliteClient } from '../generated/sqlite/client.ts';
import { type DatabaseTarget, parseDatabaseUrl } from './target.ts';

// Both generated clients have the same model API (prisma/postgresql is derived from prisma/schema.prisma);
// the SQLite client's type is the one the rest of the code is written against.
export type Db = SqliteClient;

export interface Database {
  readonly prisma: Db;
  readonly target: DatabaseTarget;
  /** PostgreSQL's connection pool, for its gauges in /metrics; SQLite has one in-process connection. */
  readonly pool?: PoolCounts;
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
  const { prisma, pool } =
    target.provider === 'sqlite'
      ? { prisma: await openSqlite(target.file, log), pool: undefined }
      : openPostgres(target, log);
  if (options.onQuery) {
    const onQuery = options.onQuery;
    (prisma as unknown as QueryEvents).$on('query', (event) => onQuery(event.query));
  }
  return {
    prisma,
    target,
    pool,
    ping: async () => {
      await prisma.$queryRawUnsafe('SELECT 1');
    },
    close: () => prisma.$disconnect(),
  };
}

type QueryLog = { emit: 'event'; level: 'query' }[];
type QueryEvents = { $on(event: 'query', listener: (event: { query: string }) => void): void };

async function openSqlite(file: string, log: QueryLog): Promise<Db> {
  const prisma = new SqliteClient({ adapter: new PrismaBetterSqlite3({ url: `file:${file}` }), log });
  // WAL lets readers run beside the writer; NORMAL is durable across process crashes in WAL mode.
  await prisma.$queryRawUnsafe('PRAGMA journal_mode = WAL');
  await prisma.$executeRawUnsafe('PRAGMA synchronous = NORMAL');
  await prisma.$executeRawUnsafe('PRAGMA busy_timeout = 5000');
  await prisma.$executeRawUnsafe('PRAGMA foreign_keys = ON');
  return prisma;
}

function openPostgres(target: Extract<DatabaseTarget, { provider: 'postgresql' }>, log: QueryLog) {
  // The pool is made here rather than by the adapter so that /metrics can read its counts.
  const pool = new pg.Pool({ connectionString: target.connectionString, max: target.poolSize });
  const adapter = new PrismaPg(pool, {
    disposeExternalPool: true,
    ...(target.schema && { schema: target.schema }),
  });
  return { prisma: new PostgresClient({ adapter, log }) as unknown as Db, pool };
}
