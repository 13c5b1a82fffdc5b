import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from './config.ts';
import { ApiError } from './contract/errors.ts';
import type { Database } from './db/client.ts';
import { createDocsRoutes } from './docs/routes.ts';
import { DomainsRegistry } from './domains/registry.ts';
import { createHostRouter } from './domains/router.ts';
import { createGraphQLServer } from './graphql/yoga.ts';
import { createOpsRoutes, databaseCheck, rateLimitStoreCheck } from './http/ops.ts';
import { createKeyLookup } from './keys/lookup.ts';
import { createLogger, type Logger } from './observability/logger.ts';
import { createMetrics } from './observability/metrics.ts';
import { createRequestObserver } from './observability/requests.ts';
import { openCounterStore } from './ratelimit/counters.ts';
import { createRateLimitPlugin } from './ratelimit/plugin.ts';
import { createOpenApiDocument } from './rest/openapi.ts';
import { useRest } from './rest/router.ts';

/**
 * The request pipeline: logging and metrics, custom-domain routing, operational endpoints (not
 * rate-limited), then Yoga, whose first plugin is the rate-limit layer and whose last is the REST adapter.
 */
export async function createApp({
  config,
  db,
  logger = createLogger(config.logLevel),
}: {
  config: Config;
  db: Database;
  logger?: Logger;
}) {
  const { petsByIdDeprecation } = config;
  const counters = await openCounterStore(config.rateLimit, logger);
  const domains = config.domainsFile
    ? new DomainsRegistry(config.domainsFile, { log: logger }).watch()
    : null;
  const routeHost = createHostRouter(() => domains?.current ?? null, {
    trustProxy: config.rateLimit.trustProxyHops > 0,
  });

  const openApiDocument = JSON.stringify(createOpenApiDocument({ petsByIdDeprecation }));
  const metrics = createMetrics(db);
  const observe = createRequestObserver({ logger, metrics });
  let draining = false;
  const handleOps = createOpsRoutes(
    [databaseCheck(db), rateLimitStoreCheck(counters)],
    {
      '/openapi.json': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(openApiDocument);
      },
      '/metrics': (_req, res) => metrics.respond(res),
      ...createDocsRoutes(),
    },
    logger,
    () => draining,
  );
  const rateLimit = createRateLimitPlugin({
    config: config.rateLimit,
    counters,
    findKey: createKeyLookup(db.prisma, {
      ttlMs: config.rateLimit.keyCacheTtlMs,
      maxEntries: config.rateLimit.keyCacheSize,
    }),
    log: logger,
  });
  const yoga = createGraphQLServer({
    prisma: db.prisma,
    petsByIdDeprecation,
    rest: useRest({ maxBodyBytes: config.restMaxBodyBytes, petsByIdDeprecation }),
    limits: config.graphqlLimits,
    production: config.production,
    logger,
    rateLimit,
    responseCache:
      db.storeVersion && config.responseCacheEntries > 0
        ? { storeVersion: db.storeVersion, maxEntries: config.responseCacheEntries }
        : undefined,
  });

  async function route(req: IncomingMessage, res: ServerResponse) {
    if (routeHost(req, res)) return;
    if (await handleOps(req, res)) return;
    await yoga(req, res);
  }

  /** Never rejects: a failure outside Yoga's own error handling is logged and answered 500 INTERNAL. */
  async function handle(req: IncomingMessage, res: ServerResponse) {
    observe(req, res);
    try {
      await route(req, res);
    } catch (error) {
      logger.error({ err: error }, 'request failed outside the API layers');
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(new ApiError('INTERNAL', 'Unexpected error.').toBody()));
      } else res.destroy();
    }
  }

  /** Releases what the app opened (the database is the caller's). */
  async function close() {
    domains?.close();
    await counters.close();
  }

  /** From now on /readyz answers 503 `draining`; everything else is served as before. */
  function drain() {
    draining = true;
  }

  return { handle, drain, close };
}

export type App = Awaited<ReturnType<typeof createApp>>;
