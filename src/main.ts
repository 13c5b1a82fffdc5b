// The process: configuration, then one of three roles (src/process/). With WORKERS=1 (the default) it does
// everything itself; with WORKERS > 1 it is a node:cluster primary that prepares the database and supervises
// the workers, and each worker it forks serves.
// First: V8 settings that must be made before anything compiles (modules run in the order they are imported).
import './process/v8-flags.ts';
import { isGatewayWorker } from './cluster/role.ts';
import { loadConfig } from './config/index.ts';
import { ConfigError } from './config/read.ts';
import { createLogger } from './observability/logger.ts';
import { StartupError } from './process/startup-error.ts';

async function main() {
  const config = loadConfig();
  // A worker's stdout is the primary's pipe: it writes JSON, which the primary formats as its own lines.
  const logger = createLogger(config.logLevel, isGatewayWorker() ? 'json' : config.logFormat);
  // Only the processes that serve load the pipeline (GraphQL schema, Yoga, REST): the primary stays small.
  if (isGatewayWorker()) return (await import('./process/worker.ts')).runWorker(config, logger);
  if (config.workers > 1) return (await import('./process/primary.ts')).runPrimary(config, logger);
  return (await import('./process/single.ts')).runSingle(config, logger);
}

main().catch((error) => {
  // A configuration or start-up problem a person can fix is one line; anything else keeps its stack.
  console.error(error instanceof ConfigError || error instanceof StartupError ? error.message : error);
  process.exit(1);
});
