import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../config/index.ts';
import type { Database } from '../db/client.ts';
import { listen } from '../http/listener.ts';
import { createPipeline } from '../http/pipeline.ts';
import type { Logger } from '../observability/logger.ts';
import { giveBackMemoryWhenIdle } from './idle-memory.ts';
import { listenFailure } from './startup-error.ts';

/**
 * Serves the pipeline on the configured host and port, in this process. `stop` first drains for
 * SHUTDOWN_DELAY_MS (/readyz answers 503, every response `Connection: close`, new connections still accepted),
 * then cuts open subscription streams' connections (their clients reconnect), stops accepting, lets requests in flight finish (for at most SHUTDOWN_TIMEOUT_MS), and closes Redis and
 * the database.
 */
export async function serve(config: Config, db: Database, logger: Logger) {
  // Before the pipeline, whose GraphQL stages include the tracing plugin only while tracing is on.
  const stopTracing = config.tracing
    ? (await import('../observability/start-tracing.ts')).startTracing(process.env)
    : undefined;
  const pipeline = await createPipeline({ config, db, logger });
  const listener = await listen(pipeline.handle, config.host, config.port, config.http).catch(
    (error: unknown) => {
      throw listenFailure(error, config.host, config.port);
    },
  );
  const stopWatchingMemory = giveBackMemoryWhenIdle(listener.server);
  const metricsListener =
    config.metricsPort === undefined
      ? undefined
      : await listen(pipeline.handleMetricsPort, config.host, config.metricsPort, config.http).catch(
          (error: unknown) => {
            throw listenFailure(error, config.host, config.metricsPort as number);
          },
        );
  return {
    url: listener.url,
    metricsUrl: metricsListener?.url,
    stop: async () => {
      // A load balancer sees the 503 at its next health checks and stops sending; until then this process
      // must still serve what it is sent, and close no idle connection that the balancer may be reusing.
      stopWatchingMemory();
      pipeline.drain();
      listener.drain();
      metricsListener?.drain();
      if (config.shutdownDelayMs > 0) {
        logger.info(`draining: /readyz answers 503; serving for SHUTDOWN_DELAY_MS=${config.shutdownDelayMs}`);
        await sleep(config.shutdownDelayMs);
      }
      // An open subscription stream is a response that never finishes by itself: its connection is cut now (no
      // `complete`, which would tell its client the subscription is over), and its client reconnects elsewhere.
      pipeline.endSubscriptions();
      const [cutOff] = await Promise.all([
        listener.close(config.shutdownTimeoutMs),
        metricsListener?.close(config.shutdownTimeoutMs),
      ]);
      if (cutOff > 0) {
        logger.warn(
          { cutOff },
          `cut off requests unfinished after SHUTDOWN_TIMEOUT_MS=${config.shutdownTimeoutMs}`,
        );
      }
      await pipeline.close();
      await db.close();
      await stopTracing?.();
    },
  };
}
