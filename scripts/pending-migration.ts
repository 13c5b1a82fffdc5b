// The SQL that a new migration needs: from what the committed migration folders build to the current schema.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { derivePostgresSchema, SQLITE_SCHEMA_PATH } from '../prisma/derive.ts';
import { type MigrationProvider, readMigrations } from '../src/db/migrate.ts';
import { diffSql, migrationsTarget, schemaTarget } from './schema-engine.ts';

const SQLITE_SCHEMA_FILE = fileURLToPath(new URL(`../${SQLITE_SCHEMA_PATH}`, import.meta.url));

/** `source` is the hand-written schema, prisma/schema.prisma unless given. */
export async function pendingMigrationSql(provider: MigrationProvider, source?: string): Promise<string> {
  source ??= await readFile(SQLITE_SCHEMA_FILE, 'utf8');
  // PostgreSQL's schema is derived in memory, so that a forgotten `npm run db:derive` cannot hide a change.
  const schema = provider === 'sqlite' ? source : derivePostgresSchema(source);
  // Only SQLite needs its ids rewritten (see below).
  const ids = provider === 'sqlite' ? autoincrementIds(schema) : [];
  const committed = (await readMigrations(provider)).map((migration) => ({
    ...migration,
    sql: rewriteIds(migration.sql, ids, SQLITE_ID, PRISMA_ID),
  }));
  const sql = await diffSql(
    provider,
    migrationsTarget(provider, committed),
    schemaTarget('schema.prisma', schema),
  );
  return rewriteIds(sql, ids, PRISMA_ID, SQLITE_ID);
}

/*
 * Prisma declares a `BigInt @id @default(autoincrement())` on SQLite as `BIGINT NOT NULL PRIMARY KEY`, which
 * SQLite does not fill in, so inserts fail (prisma/prisma#13178). `INTEGER PRIMARY KEY AUTOINCREMENT` is the
 * same 64-bit integer, generated and never reused. The committed SQLite migrations declare such ids that way;
 * they are shown to the engine as Prisma would have written them, and what it writes is changed back.
 */
const PRISMA_ID = 'BIGINT NOT NULL PRIMARY KEY';
const SQLITE_ID = 'INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT';

interface IdColumn {
  model: string;
  field: string;
}

function autoincrementIds(schema: string): IdColumn[] {
  const ids = schema.matchAll(
    /^model (\w+) \{[^}]*?^\s+(\w+)\s+BigInt\s+@id\s+@default\(autoincrement\(\)\)/gm,
  );
  return [...ids].map(([, model = '', field = '']) => ({ model, field }));
}

function rewriteIds(sql: string, ids: IdColumn[], from: string, to: string): string {
  return ids.reduce((result, { model, field }) => {
    // The column inside `CREATE TABLE "Model" (` or, when SQLite redefines a table, `"new_Model"`.
    const column = new RegExp(
      `(CREATE TABLE "(?:new_)?${model}" \\([^;]*?"${field}") ${from}(?=[,\\n])`,
      'g',
    );
    return result.replace(column, `$1 ${to}`);
  }, sql);
}
