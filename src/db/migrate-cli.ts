// `npm run db:migrate`: applies pending migrations to DATABASE_URL (default: the embedded SQLite file).
import { DEFAULT_DATABASE_URL, parseDatabaseUrl, redact } from '../config/database-url.ts';
import { migrate } from './migrate.ts';

const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
try {
  const { applied } = await migrate(parseDatabaseUrl(url));
  for (const name of applied) console.log(`applied ${name}`);
  console.log(
    applied.length ? `${redact(url)}: ${applied.length} migration(s) applied` : `${redact(url)}: up to date`,
  );
} catch (error) {
  console.error(
    `db:migrate failed on ${redact(url)}: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exitCode = 1;
}
