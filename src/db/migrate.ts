// Applies the committed migration folders (prisma/migrations/<provider>/) that a database lacks, and records
// them in Prisma's `_prisma_migrations` table as `prisma migrate deploy` would, so that Prisma's tools see the
// history in sync. No Prisma engine is involved: the folders are plain SQL.
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseTarget } from '../config/database-url.ts';

export type MigrationProvider = DatabaseTarget['provider'];

export interface Migration {
  /** The folder's name, `<YYYYMMDDHHMMSS>_<name>`: the order of application. */
  name: string;
  sql: string;
}

/** What `_prisma_migrations` holds about one migration (the columns this runner reads). */
interface AppliedMigration {
  id: string;
  migration_name: string;
  checksum: string;
  started_at: unknown;
  finished_at: unknown;
}

/** One database's side of a run: each method is a single step of Prisma's protocol. */
interface MigrationSession {
  appliedMigrations(): Promise<AppliedMigration[]>;
  /** Runs the migration and records it, all in one transaction; false when another process got there first. */
  apply(migration: Migration, checksum: string): Promise<boolean>;
  close(): Promise<void>;
}

/** Held on PostgreSQL while migrating; the number `prisma migrate` itself uses, so the two exclude each other. */
const ADVISORY_LOCK_ID = 72707369;

const MIGRATIONS_ROOT = fileURLToPath(new URL('../../prisma/migrations/', import.meta.url));

export function migrationsDir(provider: MigrationProvider): string {
  return path.join(MIGRATIONS_ROOT, provider);
}

export async function readMigrations(provider: MigrationProvider): Promise<Migration[]> {
  const dir = migrationsDir(provider);
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => ({ name, sql: await readFile(path.join(dir, name, 'migration.sql'), 'utf8') })),
  );
}

/** Applies `options.migrations` (default: the committed folders for the target's provider) that are pending. */
export async function migrate(
  target: DatabaseTarget,
  options: { migrations?: Migration[] } = {},
): Promise<{ applied: string[] }> {
  const migrations = options.migrations ?? (await readMigrations(target.provider));
  const session = target.provider === 'sqlite' ? openSqlite(target.file) : await openPostgres(target);
  try {
    const applied = await session.appliedMigrations();
    checkHistory(target.provider, migrations, applied);
    const appliedNames = new Set(applied.map((row) => row.migration_name));
    const newlyApplied: string[] = [];
    for (const migration of migrations.filter(({ name }) => !appliedNames.has(name))) {
      if (await session.apply(migration, checksum(migration.sql))) newlyApplied.push(migration.name);
    }
    return { applied: newlyApplied };
  } finally {
    await session.close();
  }
}

function checksum(sql: string): string {
  return createHash('sha256').update(sql).digest('hex');
}

/** Refuses, as `prisma migrate deploy` does, a history that the committed folders cannot continue. */
function checkHistory(
  provider: MigrationProvider,
  migrations: Migration[],
  applied: AppliedMigration[],
): void {
  const unfinished = applied.find((row) => row.finished_at === null);
  if (unfinished) {
    throw new Error(
      `Migration ${unfinished.migration_name} was started at ${String(unfinished.started_at)} and never finished ` +
        '(a failed run of another tool). Check what it left in the database and repair it by hand, then mark it ' +
        `rolled back: UPDATE _prisma_migrations SET rolled_back_at = CURRENT_TIMESTAMP WHERE id = '${unfinished.id}'`,
    );
  }
  const committed = new Map(migrations.map((migration) => [migration.name, migration]));
  for (const row of applied) {
    const migration = committed.get(row.migration_name);
    if (migration && checksum(migration.sql) !== row.checksum) {
      throw new Error(
        `Migration ${row.migration_name} was changed after it was applied to this database. Restore ` +
          `prisma/migrations/${provider}/${row.migration_name}/migration.sql as it was, and make the change in a ` +
          'new migration (npm run db:new-migration -- <name>).',
      );
    }
  }
}

function failure(migration: Migration, error: unknown): Error {
  const reason = error instanceof Error ? error.message : String(error);
  const message = `Migration ${migration.name} failed and was rolled back, so nothing of it is applied: ${reason}`;
  return new Error(message, { cause: error });
}

function openSqlite(file: string): MigrationSession {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Sqlite(file, { timeout: 30_000 });
  // Prisma's SQLite migrations redefine tables (copy, drop, rename): with foreign keys on, dropping a parent
  // would cascade to its children. They are checked before each commit instead (SQLite's documented way).
  db.pragma('foreign_keys = OFF');
  db.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
  )`);
  const isRecorded = db.prepare(
    'SELECT 1 FROM "_prisma_migrations" WHERE migration_name = ? AND rolled_back_at IS NULL',
  );
  const record = db.prepare(
    `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
     VALUES (?, ?, ?, ?, ?, 1)`,
  );
  // The format Prisma's engine writes.
  const now = () => new Date().toISOString().replace('Z', '+00:00');
  const applyOnce = db.transaction((migration: Migration, sum: string): boolean => {
    if (isRecorded.get(migration.name)) return false;
    const startedAt = now();
    db.exec(migration.sql);
    const violation = db.pragma('foreign_key_check', { simple: false }) as {
      table: string;
      parent: string;
    }[];
    if (violation[0]) {
      throw new Error(`it leaves rows of ${violation[0].table} without their ${violation[0].parent}`);
    }
    record.run(randomUUID(), sum, migration.name, startedAt, now());
    return true;
  });
  return {
    appliedMigrations: async () =>
      db
        .prepare('SELECT * FROM "_prisma_migrations" WHERE rolled_back_at IS NULL ORDER BY started_at')
        .all() as AppliedMigration[],
    apply: async (migration, sum) => {
      try {
        // IMMEDIATE takes the write lock first: a second process waits, then sees the row and skips.
        return applyOnce.immediate(migration, sum);
      } catch (error) {
        throw failure(migration, error);
      }
    },
    close: async () => {
      db.close();
    },
  };
}

async function openPostgres(
  target: Extract<DatabaseTarget, { provider: 'postgresql' }>,
): Promise<MigrationSession> {
  const client = new pg.Client({ connectionString: target.connectionString });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK_ID]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${target.schema}"`);
    // Migration SQL names no schema: everything it creates lands in the target's.
    await client.query(`SET search_path TO "${target.schema}"`);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum"              VARCHAR(64) NOT NULL,
      "finished_at"           TIMESTAMPTZ,
      "migration_name"        VARCHAR(255) NOT NULL,
      "logs"                  TEXT,
      "rolled_back_at"        TIMESTAMPTZ,
      "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
    )`);
  } catch (error) {
    await client.end();
    throw error;
  }
  return {
    appliedMigrations: async () =>
      (
        await client.query<AppliedMigration>(
          'SELECT * FROM "_prisma_migrations" WHERE rolled_back_at IS NULL ORDER BY started_at',
        )
      ).rows,
    apply: async (migration, sum) => {
      try {
        await client.query('BEGIN');
        await client.query(migration.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`,
          [randomUUID(), sum, migration.name],
        );
        await client.query('COMMIT');
        return true;
      } catch (error) {
        // The migration's own error is the one to report, even if the connection is too broken to roll back.
        await client.query('ROLLBACK').catch(() => {});
        throw failure(migration, error);
      }
    },
    // Ending the session releases the advisory lock.
    close: () => client.end(),
  };
}
