// `npm run --silent apikey -- create|list|revoke`: API keys in DATABASE_URL's database (default: the
// embedded SQLite file), migrated first. Exit status 2 for a wrong command line, 1 for any other failure.
import { openDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { DEFAULT_DATABASE_URL, parseDatabaseUrl } from '../db/target.ts';
import { loadRateLimitConfig } from '../ratelimit/config.ts';
import { parseApiKeyCommand, runApiKeyCommand, USAGE, UsageError } from './commands.ts';

try {
  const command = parseApiKeyCommand(process.argv.slice(2));
  const { plans } = loadRateLimitConfig();
  const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  await migrate(parseDatabaseUrl(url));
  const db = await openDatabase(url);
  try {
    for (const line of await runApiKeyCommand(command, db.prisma, plans)) console.log(line);
  } finally {
    await db.close();
  }
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(error instanceof UsageError ? `apikey: ${message}\n\n${USAGE}` : `apikey: ${message}`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
}
