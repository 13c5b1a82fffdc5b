import type { Config } from '../config/index.ts';
import { openDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import type { Logger } from '../observability/logger.ts';
import { seedDemoCatalogue } from '../store/demo-catalogue.ts';
import { databaseFailure } from './startup-error.ts';

/**
 * Applies pending migrations and, on an empty store, the demo catalogue; answers the open database. Migrating
 * is the first use of the database: a database that cannot be reached or opened fails there, said in a line.
 */
export async function prepareDatabase(config: Config, logger: Logger) {
  const { applied } = await migrate(config.database).catch((error: unknown) => {
    throw databaseFailure(error, config.database);
  });
  const db = await openDatabase(config.database.url, { timeouts: config.databaseTimeouts });
  if (config.seedDemoData && (await seedDemoCatalogue(db))) logger.info('seeded the demo catalogue');
  return { applied, db };
}
