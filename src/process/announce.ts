import { redact } from '../config/database-url.ts';
import type { Config } from '../config/index.ts';
import type { Logger } from '../observability/logger.ts';

/**
 * The gateway's first log lines, once it serves (in one process, or once every worker listens): where it serves
 * and on what, then each address a person opens, on a line of its own.
 */
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
  const addresses: [string, string][] = [
    ['Front door', `${url}/`],
    ['GraphQL and GraphiQL', `${url}/graphql`],
    ['REST reference', `${url}/docs`],
    ['Your usage', `${url}/usage`],
  ];
  if (metricsUrl) addresses.push(['Prometheus metrics', `${metricsUrl}/metrics`]);
  const width = Math.max(...addresses.map(([name]) => name.length));
  for (const [name, address] of addresses) logger.info(`${`${name}:`.padEnd(width + 1)} ${address}`);
}
