// `npm run --silent documents -- add|list|remove`: trusted documents in DATABASE_URL's database (default: the
// embedded SQLite file), migrated first. Exit status 2 for a wrong command line, 1 for any other failure.
import { databasePart } from '../config/database.ts';
import { readConfig } from '../config/read.ts';
import { openDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { parseDocumentsCommand, runDocumentsCommand, USAGE, UsageError } from './commands.ts';

try {
  const command = parseDocumentsCommand(process.argv.slice(2));
  if (command.command === 'help') {
    console.log(USAGE);
  } else {
    const { store } = readConfig({ store: databasePart });
    await migrate(store.database);
    const db = await openDatabase(store.database.url);
    try {
      for (const line of await runDocumentsCommand(command, db.prisma)) console.log(line);
    } finally {
      await db.close();
    }
  }
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(error instanceof UsageError ? `documents: ${message}\n\n${USAGE}` : `documents: ${message}`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
}
