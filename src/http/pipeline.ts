import type { IncomingMessage, ServerResponse } from 'node:http';
import { printSchema } from 'graphql';
import type { Config } from '../config/index.ts';
import { isGraphQLPath } from '../contract/endpoints.ts';
import { sendError } from '../contract/error-response.ts';
import { apiError } from '../contract/errors.ts';
import { createDocumentCache } from '../contract/operations.ts';
import { petsByIdDeprecation } from '../contract/pets-by-id.ts';
import { createStaticAsset, REVALIDATE } from '../contract/static-asset.ts';
import type { Database } from '../db/client.ts';
import { createDocumentFinder, useTrustedDocuments } from '../documents/plugin.ts';
import { DomainsRegistry } from '../domains/registry.ts';
import { createHostRouter } from '../domains/router.ts';
import { ChangeFeed } from '../events/feed.ts';
import { openChangeBus } from '../events/open.ts';
import type { ServerContext } from '../graphql/context.ts';
import { buildIdentity, createEntityTags } from '../graphql/entity-tags.ts';
import { graphqlGetEntityTags } from '../graphql/get-entity-tag.ts';
import { dialectOf } from '../graphql/plan/dialects.ts';
import { createEventStreams } from '../graphql/plugins/server-sent-events.ts';
import { buildSchema } from '../graphql/schema.ts';
import { createGraphQLServer } from '../graphql/yoga.ts';
import { useIdempotency } from '../idempotency/plugin.ts';
import { sweepPeriodically } from '../idempotency/sweep.ts';
import { createKeyWatch } from '../keys/key-watch.ts';
import { createKeyLookup } from '../keys/lookup.ts';
import { createLogger, type Logger } from '../observability/logger.ts';
import { createMetrics } from '../observability/metrics.ts';
import { nameOperation } from '../observability/request-context.ts';
import { createRequestObserver } from '../observability/requests.ts';
import { traceRequest } from '../observability/tracing.ts';
import { openCounterStore } from '../ratelimit/counters/open.ts';
import { createRateLimitLayer } from '../ratelimit/plugin.ts';
import { restEntityTags } from '../rest/entity-tag.ts';
import { createOperationFinder } from '../rest/match.ts';
import { createRestMeaning } from '../rest/meaning.ts';
import { createOpenApiDocument } from '../rest/openapi.ts';
import { useRest } from '../rest/plugin.ts';
import { createReferencePageRoutes } from '../rest/reference-page/routes.ts';
import { ROUTES } from '../rest/routes.ts';
import { createUsageCounter } from '../usage/counts.ts';
import { openUsageStore } from '../usage/open.ts';
import { createUsageRoutes, type InspectCaller } from '../usage/route.ts';
import { createCors } from './cors.ts';
import { createExplorerPage } from './explorer-page.ts';
import { createFrontDoorRoutes, prefersHtml } from './front-door.ts';
import { answerRoutes, createOpsRoutes, databaseCheck, type OpsRoute, rateLimitStoreCheck } from './ops.ts';
import { createTargetCheck } from './request-target.ts';

// With API_KEY_CACHE_TTL_MS at 0 (no cache), open streams still read their keys no more often than this.
const KEY_WATCH_MIN_INTERVAL_MS = 250;

/**
 * The pipeline every request goes through. Its stages, in order, each answering the request or handing it on:
 *   1. observe: the request's id, log line and metrics (answers nothing);
 *   2. request target: 400 for a target or Host nothing after it could build a URL from (counted, rate-limited);
 *      past it, the request is labelled with the API and operation its method and path name;
 *   3. host routing: a custom domain's redirect, or 421 for a Host that is not attached;
 *   4. CORS: the headers for an allowed origin on every response; preflights answered here, uncounted;
 *   5. ops: / and /favicon.ico, /healthz, /readyz, /metrics (unless on METRICS_PORT), /openapi.json, /docs and
 *      /usage, answered without a rate limit;
 *   6. the API: Yoga, whose plugins are the rest of the way (graphql/yoga.ts): the rate limit first, the
 *      REST adapter last.
 */
export async function createPipeline({
  config,
  db,
  logger = createLogger(config.logLevel, config.logFormat),
  now = Date.now,
}: {
  config: Config;
  db: Database;
  logger?: Logger;
  /** The clock of what expires (idempotency records) and of the pets-by-id sunset; tests set it. */
  now?: () => number;
}) {
  const metrics = createMetrics(db, { reuseMs: config.metricsReuseMs, now });
  const usage = createUsageCounter(openUsageStore(db.prisma, config.rateLimit), { now });
  const observe = createRequestObserver({ logger, metrics, usage: usage.record });

  const counters = await openCounterStore(config.rateLimit, logger);
  const changes = await openChangeBus(config.rateLimit, logger);
  const feed = new ChangeFeed(changes, { gapWaitMs: config.subscriptions.gapWaitMs });
  const domains = config.domainsFile
    ? new DomainsRegistry(config.domainsFile, { log: logger }).watch()
    : null;
  const routeHost = createHostRouter(() => domains?.current ?? null, {
    trustProxy: config.rateLimit.trustProxyHops > 0,
  });

  const cors = createCors(config.corsOrigins);

  const petsById = petsByIdDeprecation(config.petsByIdDeprecation, now);
  const schema = buildSchema(petsById, { federation: config.federation });
  const openApiDocument = JSON.stringify(createOpenApiDocument({ schema, petsById }));
  const openApiAsset = createStaticAsset(openApiDocument, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': REVALIDATE,
  });
  const answerExplorer = createExplorerPage();
  let draining = false;
  // The rate-limit layer is made after the ops routes; /usage asks it only once requests arrive.
  let inspect: InspectCaller = () => Promise.reject(new Error('the rate-limit layer is not ready'));
  const metricsRoute: Record<string, OpsRoute> = { '/metrics': (_req, res) => metrics.respond(res) };
  const answerOps = createOpsRoutes(
    [databaseCheck(db), rateLimitStoreCheck(counters)],
    {
      ...createFrontDoorRoutes(),
      '/openapi.json': openApiAsset.answer,
      // On its own listener when METRICS_PORT is set (handleMetricsPort), so that scrapes cannot crowd the API.
      ...(config.metricsPort === undefined && metricsRoute),
      ...createReferencePageRoutes(),
      ...createUsageRoutes({ prisma: db.prisma, usage, inspect: (...args) => inspect(...args), prefersHtml }),
    },
    logger,
    () => draining,
  );

  const findDocument = createDocumentFinder(db.prisma);
  const tagRead = createEntityTags({
    schema,
    readTableVersions: db.readTableVersions,
    epoch: petsById.epoch,
    build: buildIdentity(printSchema(schema), openApiDocument),
  });
  const tagRestGet = restEntityTags(ROUTES, tagRead);
  const tagGraphQLGet = graphqlGetEntityTags(tagRead, findDocument, config.graphqlLimits.maxTokens);

  const rateLimit = createRateLimitLayer<ServerContext>({
    config: config.rateLimit,
    counters,
    findKey: createKeyLookup(db.prisma, {
      ttlMs: config.rateLimit.keyCacheTtlMs,
      maxEntries: config.rateLimit.keyCacheSize,
    }),
    log: logger,
    tagRequest: (request, url) =>
      isGraphQLPath(url.pathname) ? tagGraphQLGet(request, url) : tagRestGet(request, url),
  });
  const refuseUnservable = createTargetCheck(rateLimit.countRefusal);
  inspect = rateLimit.inspect;
  const restOperationOf = createOperationFinder(ROUTES);
  /** Labels the request with the API and operation it asks for, whichever stage answers it. */
  function nameRequest(req: IncomingMessage) {
    const target = req.url ?? '';
    const query = target.indexOf('?');
    const path = query < 0 ? target : target.slice(0, query);
    if (isGraphQLPath(path)) return nameOperation(req, 'graphql', 'unknown');
    const operationId = restOperationOf(req.method ?? '', path);
    if (operationId) nameOperation(req, 'rest', operationId);
  }

  const eventStreams = createEventStreams({
    ...config.subscriptions,
    log: logger,
    onSlowConsumer: (behind) => {
      metrics.observeSlowConsumer();
      logger.warn({ behind }, 'a subscription stream fell behind its backlog limit: ended SLOW_CONSUMER');
    },
  });
  const { storeVersion, tableVersions } = db;
  const documents = createDocumentCache(config.graphqlLimits.maxTokens);
  const api = createGraphQLServer({
    prisma: db.prisma,
    documents,
    changes: { publish: changes.publish, feed },
    // Twice per key cache time: a stream ends within that time of its key's revocation, as its requests would.
    keyWatch: createKeyWatch(db.prisma, {
      intervalMs: Math.max(KEY_WATCH_MIN_INTERVAL_MS, config.rateLimit.keyCacheTtlMs / 2),
      log: logger,
    }),
    eventStreams,
    schema,
    limits: config.graphqlLimits,
    production: config.production,
    logger,
    rateLimit: rateLimit.plugin,
    trustedDocuments: useTrustedDocuments({ findDocument, mode: config.trustedDocuments }),
    publicMaxAgeSeconds: config.publicMaxAgeSeconds,
    idempotency: useIdempotency({
      db,
      maxRestBodyBytes: config.restMaxBodyBytes,
      log: logger,
      now,
      limits: config.idempotency,
      schema,
      documents,
      restMeaning: createRestMeaning(schema, config.restMaxBodyBytes),
    }),
    rest: useRest({ maxBodyBytes: config.restMaxBodyBytes, petsById, production: config.production }),
    readUsage: usage.read,
    responseCache:
      storeVersion && config.responseCacheEntries > 0
        ? {
            storeVersion,
            tableVersions,
            epoch: petsById.epoch,
            maxEntries: config.responseCacheEntries,
            onLookup: metrics.observeCache,
          }
        : undefined,
    listPlans: config.listPlans ? dialectOf(db.target) : undefined,
  });

  const stopSweeping = sweepPeriodically(db.prisma, { now, log: logger });

  /** Never rejects: a failure outside Yoga's own error handling is logged and answered 500 INTERNAL. */
  const handle = (req: IncomingMessage, res: ServerResponse): Promise<void> =>
    traceRequest(req, res, () => serve(req, res));

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    observe(req, res);
    try {
      // A stage that hands the request on says so at once; only an answer may take a promise.
      const refused = refuseUnservable(req, res);
      if (refused && (await refused)) return;
      nameRequest(req);
      if (routeHost(req, res)) return;
      if (cors(req, res)) return;
      const answered = answerOps(req, res);
      if (answered && (await answered)) return;
      const explorer = answerExplorer(req, res);
      if (explorer) return await explorer;
      // Yoga answers GET and POST only: a HEAD of /graphql (GraphiQL's page, a query in the URL) runs as its GET.
      // node:http made the response a HEAD's when the request arrived, so it still leaves the body out.
      if (req.method === 'HEAD' && isGraphQLPath(req.url?.split('?')[0] ?? '')) req.method = 'GET';
      await api(req, res);
    } catch (error) {
      // Already answered: cut off at shutdown (http/listener.ts), its own answer came too late.
      if (res.writableEnded) return logger.debug({ err: error }, 'answer after the cut-off dropped');
      logger.error({ err: error }, 'request failed outside the API layers');
      if (!res.headersSent) sendError(res, apiError('internal'));
      else res.destroy();
    }
  }

  const answerMetrics = answerRoutes(metricsRoute);
  /** The listener on METRICS_PORT: /metrics, observed like any request, and 404 for every other path. */
  async function handleMetricsPort(req: IncomingMessage, res: ServerResponse): Promise<void> {
    observe(req, res);
    const answered = answerMetrics(req, res);
    if (answered && (await answered)) return;
    sendError(res, apiError('metricsPortOnly'));
  }

  /** Releases what the pipeline opened (the database is the caller's). */
  async function close() {
    stopSweeping();
    domains?.close();
    feed.end();
    await Promise.all([counters.close(), changes.close(), usage.close()]);
  }

  /**
   * Cuts every open subscription stream's connection (and any opened from now on), so that none holds a shutdown
   * and their clients reconnect, as after a dropped connection: a `complete` event would tell them the
   * subscription is over.
   */
  function endSubscriptions() {
    eventStreams.dropAll();
    feed.end();
  }

  /** From now on /readyz answers 503 `draining`; everything else is served as before. */
  function drain() {
    draining = true;
  }

  return { handle, handleMetricsPort, drain, endSubscriptions, close };
}

export type Pipeline = Awaited<ReturnType<typeof createPipeline>>;
