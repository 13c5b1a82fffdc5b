// Fresh databases for tests, on the provider TEST_DB names ('sqlite', the default, or 'postgresql') unless a test
// names one: a file in a new temporary directory, or a new schema in PostgreSQL's `test` database
// (TEST_POSTGRES_URL overrides it).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type DatabaseTarget, parseDatabaseUrl, redact } from '../../src/config/database-url.ts';
import { type Database, type DatabaseOptions, openDatabase } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';

export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL || 'postgresql://root@127.0.0.1:5432/test';

export interface EmptyTestDatabase {
  url: string;
  target: DatabaseTarget;
  /** Removes the file or schema and everything in it. */
  drop(): Promise<void>;
}

export interface TestDatabase extends EmptyTestDatabase {
  db: Database;
}

/** A migrated database, opened; `drop()` closes and removes it. */
export async function createTestDatabase(
  options: DatabaseOptions = {},
  provider = process.env.TEST_DB || 'sqlite',
): Promise<TestDatabase> {
  const empty = await createEmptyTestDatabase(provider);
  try {
    await migrate(empty.target);
    const db = await openDatabase(empty.url, options);
    return {
      ...empty,
      db,
      drop: async () => {
        await db.close();
        await empty.drop();
      },
    };
  } catch (error) {
    await empty.drop();
    throw error;
  }
}

/** A database with nothing in it, not even the migrations table (on PostgreSQL, not even its schema). */
export async function createEmptyTestDatabase(
  provider = process.env.TEST_DB || 'sqlite',
): Promise<EmptyTestDatabase> {
  if (provider === 'sqlite') return createSqliteDatabase();
  if (provider === 'postgresql') return createPostgresSchema();
  throw new Error(`TEST_DB is "${provider}": expected sqlite or postgresql`);
}

async function createSqliteDatabase(): Promise<EmptyTestDatabase> {
  const dir = await mkdtemp(path.join(tmpdir(), 'petstore-test-'));
  const url = `file:${path.join(dir, 'petstore.db')}`;
  return { url, target: parseDatabaseUrl(url), drop: () => rm(dir, { recursive: true, force: true }) };
}

async function createPostgresSchema(): Promise<EmptyTestDatabase> {
  // Unreachable PostgreSQL fails the tests that need it: they are never skipped.
  await withPostgres(async () => {}).catch((error: Error) => {
    throw new Error(
      `PostgreSQL is not reachable at ${redact(TEST_POSTGRES_URL)} (${error.message}). Start it, or point ` +
        'TEST_POSTGRES_URL at a server where the user may create schemas.',
    );
  });
  const schema = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = new URL(TEST_POSTGRES_URL);
  url.searchParams.set('schema', schema);
  return {
    url: url.toString(),
    target: parseDatabaseUrl(url.toString()),
    drop: () => withPostgres((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)),
  };
}

async function withPostgres(work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
