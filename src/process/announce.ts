import { redact } from '../config/database-url.ts';
import type { Config } from '../config/index.ts';
import type { Logger } from '../observability/logger.ts';

/** The gateway's first log lines, once it serves: in one process, or once every worker listens. */
export function announce(
  logger: Logger,
  config: Config,
  url: string,
  applied: string[],
  metricsUrl?: string,
) {
  const workers = config.workers > 1 ? `, ${config.workers} workers` : '';
  logger.info(
    `Pet Store Gateway on ${url} (database ${redact(config.database.url)}, ${applied.length} migration(s) applied${workers})`,
  );
  logger.info(`GraphQL and GraphiQL: ${url}/graphql; REST reference: ${url}/docs`);
  if (metricsUrl) logger.info(`Prometheus metrics: ${metricsUrl}/metrics`);
}
