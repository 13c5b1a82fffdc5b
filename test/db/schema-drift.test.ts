import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { derivePostgresSchema, POSTGRES_SCHEMA_PATH, SQLITE_SCHEMA_PATH } from '../../prisma/derive.ts';
import { pendingMigrationSql } from '../../scripts/pending-migration.ts';
import { lockfileContent } from '../../scripts/schema-engine.ts';
import { type MigrationProvider, migrationsDir } from '../../src/db/migrate.ts';

const PROVIDERS: MigrationProvider[] = ['sqlite', 'postgresql'];
// Diffs run Prisma's engine on shadow databases; PGlite, PostgreSQL's, takes seconds to start the first time.
const ENGINE_TIMEOUT = 60_000;

describe('database schema', () => {
  test('prisma/postgresql/schema.prisma is derived from prisma/schema.prisma (npm run db:derive)', async () => {
    const source = await readFile(SQLITE_SCHEMA_PATH, 'utf8');

    expect(await readFile(POSTGRES_SCHEMA_PATH, 'utf8')).toBe(derivePostgresSchema(source));
  });

  test.each(PROVIDERS)(
    'the committed %s migrations build exactly the current schema (else: npm run db:new-migration)',
    async (provider) => {
      expect(await pendingMigrationSql(provider)).toBe('');
      expect(await readFile(`${migrationsDir(provider)}/migration_lock.toml`, 'utf8')).toBe(
        lockfileContent(provider),
      );
    },
    ENGINE_TIMEOUT,
  );

  test.each(PROVIDERS)(
    'a %s schema change without its migration is found',
    async (provider) => {
      const source = await readFile(SQLITE_SCHEMA_PATH, 'utf8');
      const changed = source.replace(/^model Pet \{\n/m, '$&  nickname String?\n');
      expect(changed).not.toBe(source);

      expect(await pendingMigrationSql(provider, changed)).toMatch(
        /ALTER TABLE "Pet" ADD COLUMN\s+"nickname" TEXT/,
      );
    },
    ENGINE_TIMEOUT,
  );
});
