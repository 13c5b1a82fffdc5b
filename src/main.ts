// The process: configuration, database migration and first-run seed, then serving until SIGTERM/SIGINT.
import { createApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { redact } from './db/target.ts';
import { listen } from './http/server.ts';
import { seedDemoCatalogue } from './store/demo-catalogue.ts';

async function main() {
  const config = loadConfig();
  const { applied } = await migrate(config.database);
  const db = await openDatabase(config.database.url);
  if (config.seedDemoData && (await seedDemoCatalogue(db.prisma))) console.log('seeded the demo catalogue');
  const app = createApp({ config, db });
  const http = await listen(app, config.host, config.port);
  console.log(
    `Pet Store Gateway on ${http.url} (database ${redact(config.database.url)}, ${applied.length} migration(s) applied)`,
  );
  console.log(`  GraphQL and GraphiQL: ${http.url}/graphql`);

  const shutdown = async (signal: string) => {
    console.log(`${signal}: finishing requests in flight`);
    await http.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
