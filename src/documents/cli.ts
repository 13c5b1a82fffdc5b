// `npm run --silent documents -- add|list|remove|--help`: trusted documents in DATABASE_URL's database (default:
// the embedded SQLite file), migrated first.
import { runTool } from '../cli/command-line.ts';
import { databasePart } from '../config/database.ts';
import { readConfig } from '../config/read.ts';
import { openDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { parseDocumentsCommand, runDocumentsCommand, USAGE } from './commands.ts';

await runTool({
  name: 'documents',
  usage: USAGE,
  async main(argv) {
    const command = parseDocumentsCommand(argv);
    const { store } = readConfig({ store: databasePart });
    await migrate(store.database);
    const db = await openDatabase(store.database.url);
    try {
      for (const line of await runDocumentsCommand(command, db.prisma)) console.log(line);
    } finally {
      await db.close();
    }
    return 0;
  },
});
