// `npm run --silent apikey -- create|set|list|revoke|--help`: API keys in DATABASE_URL's database (default: the
// embedded SQLite file), migrated first. Exit status 2 for a wrong command line, 1 for any other failure.
import { databasePart } from '../config/database.ts';
import { rateLimitPart } from '../config/rate-limits.ts';
import { readConfig } from '../config/read.ts';
import { openDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { isHelpRequest, parseApiKeyCommand, runApiKeyCommand, USAGE, UsageError } from './commands.ts';

async function run(argv: string[]) {
  if (isHelpRequest(argv)) return console.log(USAGE);
  const command = parseApiKeyCommand(argv);
  const { store, limits } = readConfig({ store: databasePart, limits: rateLimitPart });
  await migrate(store.database);
  const db = await openDatabase(store.database.url, { timeouts: store.databaseTimeouts });
  try {
    for (const line of await runApiKeyCommand(command, db.prisma, limits)) console.log(line);
  } finally {
    await db.close();
  }
}

try {
  await run(process.argv.slice(2));
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(error instanceof UsageError ? `apikey: ${message}\n\n${USAGE}` : `apikey: ${message}`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
}
