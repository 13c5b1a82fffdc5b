// `npm run --silent apikey -- create|set|list|revoke|usage|--help`: API keys in DATABASE_URL's database
// (default: the embedded SQLite file), migrated first.
import { runTool } from '../cli/command-line.ts';
import { databasePart } from '../config/database.ts';
import { rateLimitPart } from '../config/rate-limits.ts';
import { readConfig } from '../config/read.ts';
import { openDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { parseApiKeyCommand, runApiKeyCommand, USAGE } from './commands.ts';

await runTool({
  name: 'apikey',
  usage: USAGE,
  async main(argv) {
    const command = parseApiKeyCommand(argv);
    const { store, limits } = readConfig({ store: databasePart, limits: rateLimitPart });
    await migrate(store.database);
    const db = await openDatabase(store.database.url, { timeouts: store.databaseTimeouts });
    try {
      for (const line of await runApiKeyCommand(command, db.prisma, limits)) console.log(line);
    } finally {
      await db.close();
    }
    return 0;
  },
});
