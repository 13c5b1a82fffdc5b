import type { Config } from '../config/index.ts';
import type { Database } from '../db/client.ts';
import { listen } from '../http/listener.ts';
import { createPipeline } from '../http/pipeline.ts';
import type { Logger } from '../observability/logger.ts';

/**
 * Serves the pipeline on the configured host and port, in this process. `stop` stops accepting, lets requests
 * in flight finish (for at most SHUTDOWN_TIMEOUT_MS), then closes Redis and the database.
 */
export async function serve(config: Config, db: Database, logger: Logger) {
  const pipeline = await createPipeline({ config, db, logger });
  const listener = await listen(pipeline.handle, config.host, config.port, config.http);
  return {
    url: listener.url,
    stop: async () => {
      const cutOff = await listener.close(config.shutdownTimeoutMs);
      if (cutOff > 0) {
        logger.warn(
          { cutOff },
          `cut off requests unfinished after SHUTDOWN_TIMEOUT_MS=${config.shutdownTimeoutMs}`,
        );
      }
      await pipeline.close();
      await db.close();
    },
  };
}
