import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { diagnoseMigrationHistory } from '../../scripts/schema-engine.ts';
import type { DatabaseTarget } from '../../src/config/database-url.ts';
import { openDatabase } from '../../src/db/client.ts';
import { type Migration, migrate, readMigrations } from '../../src/db/migrate.ts';
import { createEmptyTestDatabase, type EmptyTestDatabase } from '../support/databases.ts';

let committed: Migration[];
let database: EmptyTestDatabase;

beforeAll(async () => {
  committed = await readMigrations(process.env.TEST_DB === 'postgresql' ? 'postgresql' : 'sqlite');
});

async function emptyDatabase(): Promise<EmptyTestDatabase> {
  database = await createEmptyTestDatabase();
  return database;
}

afterEach(async () => {
  await database?.drop();
});

describe('migrate()', () => {
  test('creates every table on an empty database and records each migration as Prisma does', async () => {
    const { target, url } = await emptyDatabase();

    const { applied } = await migrate(target);

    expect(applied).toEqual(committed.map((m) => m.name));
    const db = await openDatabase(url);
    try {
      const counts = await Promise.all([
        db.prisma.category.count(),
        db.prisma.pet.count(),
        db.prisma.inventoryItem.count(),
        db.prisma.order.count(),
        db.prisma.apiKey.count(),
      ]);
      expect(counts).toEqual([0, 0, 0, 0, 0]);
    } finally {
      await db.close();
    }
    const rows = await query(target, 'SELECT * FROM "_prisma_migrations" ORDER BY migration_name');
    expect(rows).toEqual(
      committed.map((m) =>
        expect.objectContaining({
          migration_name: m.name,
          checksum: createHash('sha256').update(m.sql).digest('hex'),
          finished_at: expect.anything(),
          rolled_back_at: null,
          logs: null,
          applied_steps_count: 1,
        }),
      ),
    );
  });

  test("leaves the history in the state Prisma's own engine calls in sync", async () => {
    const { target } = await emptyDatabase();
    await migrate(target);

    const diagnosis = await diagnoseMigrationHistory(target, committed);

    expect(diagnosis).toEqual({
      hasMigrationsTable: true,
      history: null,
      failedMigrationNames: [],
      editedMigrationNames: [],
    });
  });

  test('applies nothing and changes nothing on an up-to-date database', async () => {
    const { target } = await emptyDatabase();
    await migrate(target);
    const before = await snapshot(target);

    expect(await migrate(target)).toEqual({ applied: [] });

    expect(await snapshot(target)).toEqual(before);
  });

  test('applies only the migrations added since the last run', async () => {
    const { target } = await emptyDatabase();
    await migrate(target);
    const added = { name: '99990101000000_add_note', sql: 'CREATE TABLE "Note" ("id" INTEGER PRIMARY KEY);' };

    expect(await migrate(target, { migrations: [...committed, added] })).toEqual({ applied: [added.name] });
    expect(await query(target, 'SELECT count(*) AS n FROM "Note"')).toEqual([{ n: expect.anything() }]);
  });

  test('refuses a committed migration that was changed after it was applied, and changes nothing', async () => {
    const { target } = await emptyDatabase();
    await migrate(target);
    const before = await snapshot(target);
    const [first, ...rest] = committed;
    if (!first) throw new Error('no committed migrations');
    const edited = { ...first, sql: `${first.sql}\nCREATE TABLE "Sneaky" ("id" INTEGER);\n` };

    await expect(migrate(target, { migrations: [edited, ...rest] })).rejects.toThrow(
      `Migration ${first.name} was changed after it was applied to this database`,
    );
    expect(await snapshot(target)).toEqual(before);
  });

  test('refuses to continue after a migration that another tool started and never finished', async () => {
    const { target } = await emptyDatabase();
    await migrate(target);
    await query(
      target,
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
       VALUES ('b5d1a0c4-0000-4000-8000-000000000000', 'x', '99990101000000_half_done', CURRENT_TIMESTAMP, 0)`,
    );

    await expect(migrate(target)).rejects.toThrow(
      /Migration 99990101000000_half_done was started at .* never finished/,
    );
  });

  test('rolls a failing migration back whole, records nothing and reports which one failed', async () => {
    const { target } = await emptyDatabase();
    await migrate(target);
    const before = await snapshot(target);
    const broken = {
      name: '99990101000000_broken',
      sql: 'CREATE TABLE "Half" ("id" INTEGER PRIMARY KEY);\nCREATE TABLE "Broken" (;\n',
    };

    await expect(migrate(target, { migrations: [...committed, broken] })).rejects.toThrow(
      /Migration 99990101000000_broken failed and was rolled back, so nothing of it is applied: .*syntax error/,
    );
    expect(await snapshot(target)).toEqual(before);
  });

  test('generates ids and never reuses the id of a deleted row', async () => {
    const { target, url } = await emptyDatabase();
    await migrate(target);
    const db = await openDatabase(url);
    try {
      const first = await db.prisma.category.create({ data: { name: 'Dogs' } });
      const second = await db.prisma.category.create({ data: { name: 'Cats' } });
      await db.prisma.category.delete({ where: { id: second.id } });
      const third = await db.prisma.category.create({ data: { name: 'Birds' } });

      expect([first.id, second.id, third.id]).toEqual([1n, 2n, 3n]);
    } finally {
      await db.close();
    }
  });

  test('two runs starting at once on a fresh database both succeed and apply each migration once', async () => {
    const { target } = await emptyDatabase();

    const results = await Promise.all([migrate(target), migrate(target)]);

    expect(results.flatMap((r) => r.applied).sort()).toEqual(committed.map((m) => m.name));
    const rows = await query(
      target,
      'SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows).toEqual(committed.map((m) => ({ migration_name: m.name })));
  });
});

describe('npm run db:migrate', () => {
  const run = (url: string) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/db/migrate-cli.ts'], {
      env: { ...process.env, DATABASE_URL: url },
    });

  test('prints what it applied, then that the database is up to date', async () => {
    const { url } = await emptyDatabase();

    const first = await run(url);
    const second = await run(url);

    for (const { name } of committed) expect(first.stdout).toContain(`applied ${name}`);
    expect(second.stdout).toMatch(/up to date/);
  });

  test('exits non-zero with the reason when it cannot migrate', async () => {
    const { url, target } = await emptyDatabase();
    await migrate(target);
    await query(target, `UPDATE "_prisma_migrations" SET checksum = 'tampered'`);

    await expect(run(url)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('was changed after it was applied to this database'),
    });
  });
});

/** Runs SQL directly on the test database (on PostgreSQL, inside its schema). */
async function query(target: DatabaseTarget, sql: string): Promise<unknown[]> {
  if (target.provider === 'sqlite') {
    const db = new Sqlite(target.file);
    try {
      const statement = db.prepare(sql);
      if (statement.reader) return statement.all();
      statement.run();
      return [];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: target.connectionString });
  await client.connect();
  try {
    await client.query(`SET search_path TO "${target.schema}"`);
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Everything a migration could change: the definitions of tables, columns and indexes, and the history. */
async function snapshot(target: DatabaseTarget): Promise<unknown[]> {
  const definitions =
    target.provider === 'sqlite'
      ? await query(target, 'SELECT type, name, sql FROM sqlite_master ORDER BY type, name')
      : await query(
          target,
          `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
           WHERE table_schema = current_schema()
           UNION ALL SELECT tablename, indexname, indexdef, '', '' FROM pg_indexes WHERE schemaname = current_schema()
           ORDER BY 1, 2`,
        );
  return [definitions, await query(target, 'SELECT * FROM "_prisma_migrations" ORDER BY migration_name')];
}
