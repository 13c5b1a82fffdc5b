// The process: configuration, database migration and first-run seed, then serving until SIGTERM/SIGINT.
import { createApp } from './app.ts';
import { loadConfig } from './config.ts';
import { ConfigError } from './config-error.ts';
import { openDatabase } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { redact } from './db/target.ts';
import { listen } from './http/server.ts';
import { createLogger } from './observability/logger.ts';
import { seedDemoCatalogue } from './store/demo-catalogue.ts';

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const { applied } = await migrate(config.database);
  const db = await openDatabase(config.database.url);
  if (config.seedDemoData && (await seedDemoCatalogue(db.prisma))) logger.info('seeded the demo catalogue');
  const app = await createApp({ config, db, logger });
  const http = await listen(app, config.host, config.port, config.http);
  logger.info(
    `Pet Store Gateway on ${http.url} (database ${redact(config.database.url)}, ${applied.length} migration(s) applied)`,
  );
  logger.info(`GraphQL and GraphiQL: ${http.url}/graphql; REST reference: ${http.url}/docs`);

  // Stop accepting, let requests in flight finish (for at most SHUTDOWN_TIMEOUT_MS), then close Redis and
  // the database. A second signal ends the process at once.
  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    const cutOff = await http.close(config.shutdownTimeoutMs);
    if (cutOff > 0) {
      logger.warn(
        { cutOff },
        `cut off requests unfinished after SHUTDOWN_TIMEOUT_MS=${config.shutdownTimeoutMs}`,
      );
    }
    await app.close();
    await db.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
