// Writes prisma/postgresql/schema.prisma from the hand-written SQLite schema.
// `--check` exits non-zero instead of writing when the committed file has drifted.
import { readFileSync, writeFileSync } from 'node:fs';
import { derivePostgresSchema, POSTGRES_SCHEMA_PATH, SQLITE_SCHEMA_PATH } from '../prisma/derive.ts';

const derived = derivePostgresSchema(readFileSync(SQLITE_SCHEMA_PATH, 'utf8'));
if (process.argv.includes('--check')) {
  if (readFileSync(POSTGRES_SCHEMA_PATH, 'utf8') !== derived) {
    console.error(`${POSTGRES_SCHEMA_PATH} is out of date: run npm run db:derive`);
    process.exit(1);
  }
} else {
  writeFileSync(POSTGRES_SCHEMA_PATH, derived);
  console.log(`wrote ${POSTGRES_SCHEMA_PATH}`);
}
