import { createApp } from './app.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { listen } from './http/server.ts';
import type { Logger } from './observability/logger.ts';

/**
 * Serves the app on the configured host and port. `stop` stops accepting, lets requests in flight finish (for
 * at most SHUTDOWN_TIMEOUT_MS), then closes Redis and the database.
 */
export async function serve(config: Config, db: Database, logger: Logger) {
  const app = await createApp({ config, db, logger });
  const http = await listen(app, config.host, config.port, config.http);
  return {
    url: http.url,
    stop: async () => {
      const cutOff = await http.close(config.shutdownTimeoutMs);
      if (cutOff > 0) {
        logger.warn(
          { cutOff },
          `cut off requests unfinished after SHUTDOWN_TIMEOUT_MS=${config.shutdownTimeoutMs}`,
        );
      }
      await app.close();
      await db.close();
    },
  };
}
