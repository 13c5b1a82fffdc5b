// `npm run db:new-migration -- <name>`: writes prisma/migrations/<provider>/<timestamp>_<name>/migration.sql for
// each provider whose committed migrations do not yet produce the current schema; nothing when none differs.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type MigrationProvider, migrationsDir } from '../src/db/migrate.ts';
import { pendingMigrationSql } from './pending-migration.ts';
import { lockfileContent } from './schema-engine.ts';

const PROVIDERS: MigrationProvider[] = ['sqlite', 'postgresql'];

const name = process.argv[2] ?? '';
if (!/^[a-z0-9_]+$/.test(name)) {
  console.error(
    'usage: npm run db:new-migration -- <name>   (lower-case letters, digits and _, e.g. add_pet_tags)',
  );
  process.exit(2);
}

// Both providers' folders share one name, so that their histories stay side by side.
const folder = `${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}_${name}`;
let written = 0;
for (const provider of PROVIDERS) {
  const sql = await pendingMigrationSql(provider);
  if (!sql) {
    console.log(`${provider}: no change`);
    continue;
  }
  const dir = migrationsDir(provider);
  await mkdir(path.join(dir, folder), { recursive: true });
  await writeFile(path.join(dir, folder, 'migration.sql'), sql);
  await writeFile(path.join(dir, 'migration_lock.toml'), lockfileContent(provider));
  console.log(`${provider}: wrote ${path.relative(process.cwd(), path.join(dir, folder, 'migration.sql'))}`);
  written++;
}
if (written > 0) console.log('Review the SQL, then commit it with the schema change.');
