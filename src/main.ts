// The process: configuration, then one of three roles. With WORKERS=1 (the default) it does everything:
// migrations, first-run seed, serving until SIGTERM/SIGINT. With WORKERS > 1 it is a node:cluster primary
// that prepares the database and supervises the workers (src/cluster/primary.ts), and each worker it forks
// serves (src/cluster/worker.ts).
import { runPrimary } from './cluster/primary.ts';
import { isGatewayWorker } from './cluster/role.ts';
import { loadConfig } from './config.ts';
import { ConfigError } from './config-error.ts';
import { prepareDatabase } from './db/prepare.ts';
import { announce, stopOnSignals } from './lifecycle.ts';
import { createLogger } from './observability/logger.ts';

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  // Only the processes that serve import the app (GraphQL schema, Yoga, REST): the primary stays small.
  if (isGatewayWorker()) return (await import('./cluster/worker.ts')).runWorker(config, logger);
  if (config.workers > 1) return runPrimary(config, logger);
  const { applied, db } = await prepareDatabase(config, logger);
  const { serve } = await import('./serve.ts');
  const gateway = await serve(config, db, logger);
  announce(logger, config, gateway.url, applied);
  stopOnSignals(logger, gateway.stop);
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
