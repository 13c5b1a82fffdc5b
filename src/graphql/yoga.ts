import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import type { GraphQLSchema } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { GRAPHQL_ENDPOINT, MAX_BATCH_SIZE } from '../contract/endpoints.ts';
import { createDocumentCache, type DocumentCache } from '../contract/operations.ts';
import type { Db } from '../db/client.ts';
import { openMemoryChangeBus } from '../events/bus.ts';
import type { Change } from '../events/change.ts';
import { ChangeFeed } from '../events/feed.ts';
import { createKeyWatch, type KeyWatch } from '../keys/key-watch.ts';
import type { Logger } from '../observability/logger.ts';
import { tracingIsOn } from '../observability/tracing.ts';
import type { UsageCounts } from '../usage/counts.ts';
import type { Context, ServerContext } from './context.ts';
import { maskError } from './errors.ts';
import type { Dialect } from './plan/dialects.ts';
import { useListPlans } from './plan/plugin.ts';
import { useBodyLimit } from './plugins/body-limit.ts';
import { useClientErrorCodes } from './plugins/client-error-codes.ts';
import { useCompression } from './plugins/compression.ts';
import { useCsrfPrevention } from './plugins/csrf-prevention.ts';
import { useEntityRepresentations } from './plugins/entity-representations.ts';
import { useFieldLimits } from './plugins/field-limits.ts';
import { useHideSuggestions } from './plugins/hide-suggestions.ts';
import { useHttpCaching } from './plugins/http-caching.ts';
import { useInputRules } from './plugins/input-rules.ts';
import { useInt64Json } from './plugins/int64-json.ts';
import { MAX_VARIABLE_DEPTH, useNestingDepth } from './plugins/nesting-depth.ts';
import { useOperationNames } from './plugins/operation-names.ts';
import { type QueryLimits, useQueryLimits } from './plugins/query-limits.ts';
import { type ResponseCacheOptions, useResponseCache } from './plugins/response-cache.ts';
import { useScopes } from './plugins/scopes.ts';
import { createEventStreams, type EventStreams } from './plugins/server-sent-events.ts';
import { useSubscriptionCap } from './plugins/subscription-cap.ts';
import { useTracing } from './plugins/tracing.ts';
import { useValidationCache } from './plugins/validation-cache.ts';
import { useWritesNeedKey } from './plugins/writes-need-key.ts';

// The README's tour creates its key with the same command. Lines stay short enough for the editor's width at
// 1,400 px (test/browser/explorers.test.ts).
export const EXPLORER_QUERY = `# The demo catalogue: reads need no key.
# For writes, create a key in a terminal:
#   npm run --silent apikey -- create \\
#     --plan pro --name tour --scopes orders,catalog
# and paste it in the Headers tab below.
query Catalogue {
  pets(first: 10) {
    edges {
      node {
        id name status
        category { name }
        inventory { quantity status }
      }
    }
    pageInfo { hasNextPage endCursor }
  }
}
`;

// GraphiQL's header editor reads JSON with comments. The key is an example left commented out: a
// placeholder key would be refused (401 INVALID_API_KEY) for every operation, the default query included.
const EXPLORER_HEADERS = `{
  // Writes need a key: paste yours and uncomment
  // "X-API-Key": "psk_..."
}`;

/** GraphiQL's options: the pipeline serves the page (http/explorer-page.ts), Yoga would render the same. */
export const EXPLORER_OPTIONS = {
  title: 'Pet Store Gateway',
  defaultQuery: EXPLORER_QUERY,
  headers: EXPLORER_HEADERS,
  defaultHeaders: EXPLORER_HEADERS,
  defaultEditorToolsVisibility: 'headers' as const,
};

export interface GraphQLServerOptions {
  prisma: Db;
  /** Where writes publish their committed changes, and where subscriptions read them (default: this process). */
  changes?: { publish: (changes: readonly Change[]) => void; feed: ChangeFeed };
  /** The schema as configured (schema.ts's buildSchema). */
  schema: GraphQLSchema;
  limits: QueryLimits & { maxBodyBytes: number };
  /** The parsed documents, shared with the idempotency layer (default: Yoga's alone). */
  documents?: DocumentCache;
  production: boolean;
  logger: Logger;
  /** The rate-limit layer, which identifies the caller and counts the request. */
  rateLimit: Plugin<Record<string, never>, ServerContext>;
  /** Trusted documents: a registered operation sent by its documentId, and who may send text. Absent: text only. */
  trustedDocuments?: Plugin;
  /** The idempotency layer, which runs a keyed write in a transaction held across the request. */
  idempotency: Plugin<Record<string, never>, ServerContext>;
  /** The REST adapter, which answers every path but the GraphQL endpoint. */
  rest: Plugin;
  /** Re-checks the keys of open subscriptions (default: every 2.5 s, half the default key cache time). */
  keyWatch?: KeyWatch;
  /** How subscriptions stream (default: a heartbeat every 15 s, a backlog of 1,000 events or 1 MiB). */
  eventStreams?: EventStreams;
  /** Absent: every operation executes. */
  responseCache?: ResponseCacheOptions;
  /** Seconds any cache may reuse a public read (HTTP_CACHE_MAX_AGE; default 0, revalidated every time). */
  publicMaxAgeSeconds?: number;
  /** How the list planner writes SQL for the store's database; absent: lists are answered by the resolvers. */
  listPlans?: Dialect;
  /** The API keys' usage counts, for `viewer { usage }`. */
  readUsage?: (keyId: bigint) => Promise<UsageCounts>;
}

/**
 * The API's pipeline: Yoga's plugins by stage, in the order their hooks run. Yoga answers GraphiQL's page
 * before the first.
 */
export function apiStages(options: GraphQLServerOptions) {
  return {
    // Names the request for its log line and metrics; answers nothing.
    'operation names': useOperationNames(),
    // Spans for parse, validate and execute, only while OpenTelemetry tracing is on.
    tracing: tracingIsOn() ? useTracing() : {},
    // Sets the validator the rate limit made on a successful answer, and no-store on every other API answer.
    'HTTP caching': useHttpCaching({ publicMaxAgeSeconds: options.publicMaxAgeSeconds ?? 0 }),
    // Identifies the caller and counts, before anything reads the body or runs: a refused request costs little.
    // A GET whose answer the client holds, by its tag, is answered 304 here, uncounted.
    'rate limit': options.rateLimit,
    'CSRF prevention': useCsrfPrevention(),
    'body limit': useBodyLimit(options.limits.maxBodyBytes),
    // On the parsed parameters, after the rate limit counted the request: a documentId becomes the stored text
    // before anything parses or checks the operation, so that every later stage treats it as text.
    'trusted documents': options.trustedDocuments ?? {},
    // Before anything walks the request recursively (the parser, the response cache's key, coercion). A document
    // may nest its selections GRAPHQL_MAX_DEPTH deep, and a literal in them as deep as a variable.
    'nesting depth': useNestingDepth({
      maxDocumentNesting: options.limits.maxDepth + MAX_VARIABLE_DEPTH + 2,
    }),
    'query limits': useQueryLimits(options.limits),
    // @defer and @stream (docs/graphql.md): their validation rules; the answer is multipart/mixed or SSE.
    'defer and stream': useDeferStream(),
    'client error codes': useClientErrorCodes(),
    // In production no error names a part of the schema the request did not ("Did you mean …?").
    'hide suggestions': options.production ? useHideSuggestions() : {},
    'writes need a key': useWritesNeedKey(),
    // Declared per root field in the schema (its `scope` option); after the key check, so that no key is 401 first.
    scopes: useScopes(),
    // A federation router's `_entities` representations name entities of this subgraph (docs/federation.md).
    'entity representations': useEntityRepresentations(),
    // After the key and scope checks: a refused write must not spend a caller's field limit.
    'field limits': useFieldLimits(),
    // Before a subscription starts: past its caller's cap of open subscriptions, it is refused (429).
    'subscription cap': useSubscriptionCap(),
    // Open subscriptions stream as Server-Sent Events, with the configured heartbeat and backlog.
    'server-sent events': (options.eventStreams ?? defaultEventStreams(options.logger)).plugin,
    // After every refusal that needs the body or the caller, before anything executes: a keyed write replays
    // its first response, or runs in a transaction that commits with the record of its response.
    idempotency: options.idempotency,
    // Variables held to the shape of their types in the words REST bodies get (store-rules.md), before graphql-js
    // coerces them; as late as graphql-js's own check, so that a refusal above (401, 403, 429) still comes first.
    'input rules': useInputRules(),
    'Int64 JSON': useInt64Json(),
    // After every plugin with a say in execution, so that a cached result passes through their hooks too.
    'response cache': options.responseCache ? useResponseCache(options.responseCache) : {},
    // After the response cache, which then keeps and answers planned results as any other.
    'list plans': options.listPlans ? useListPlans(options.listPlans) : {},
    // Last: a REST request has passed every stage above before the adapter answers it, and runs its
    // operation through them all (rest/run-operation.ts).
    'REST adapter': options.rest,
    // Its onResponse after every other stage's, which set the answer's headers first.
    compression: useCompression(),
  };
}

/** The GraphQL server, which serves REST too: schema, context, error masking, and the API's pipeline. */
export function createGraphQLServer(options: GraphQLServerOptions) {
  const { publish, feed } = options.changes ?? inProcessChanges(options.logger);
  const keys = options.keyWatch ?? createKeyWatch(options.prisma, { intervalMs: 2_500, log: options.logger });
  return createYoga<ServerContext, Context>({
    schema: options.schema,
    graphqlEndpoint: GRAPHQL_ENDPOINT,
    // Yoga's own health check answers every URL that merely ends with this string (/pets/health, ?x=/health),
    // before any plugin runs, so unmetered. /healthz is served by the ops routes instead; a serialized URL never
    // ends with a space, so this turns Yoga's check off.
    healthCheckEndpoint: ' ',
    context: ({ caller, quota, transaction }) => {
      if (!caller || !quota) throw new Error('The rate-limit layer identified no caller for this request');
      const prisma = transaction?.prisma ?? options.prisma;
      return { prisma, caller, quota, transaction, publish, feed, keys, readUsage: options.readUsage };
    },
    maskedErrors: { maskError: (error) => maskError(error) },
    batching: { limit: MAX_BATCH_SIZE },
    maxRequestBodySize: false, // useBodyLimit's instead
    // Yoga keeps the parsed documents, in the cache the idempotency layer reads them from too; their validation
    // results are kept by useValidationCache, last below.
    parserAndValidationCache: {
      validationCache: false,
      documentCache: (options.documents ?? createDocumentCache(options.limits.maxTokens)).cache,
    },
    // Yoga's CORS echoes any Origin with credentials allowed; the pipeline's CORS stage (http/cors.ts) decides.
    cors: false,
    logging: options.logger,
    landingPage: false,
    graphiql: EXPLORER_OPTIONS,
    // Loaded on the first visit of the page: GraphiQL's bundle is large, and loaded at start-up it would sit in
    // every process's heap for a page few open (docs/performance.md).
    renderGraphiQL: async (graphiql) => (await import('./graphiql-page.ts')).renderExplorerPage(graphiql),
    plugins: [...Object.values(apiStages(options)), useValidationCache()],
  });
}

function defaultEventStreams(logger: Logger) {
  return createEventStreams({
    heartbeatMs: 15_000,
    backlog: { events: 1_000, bytes: 1024 * 1024 },
    log: logger,
  });
}

function inProcessChanges(logger: Logger) {
  const bus = openMemoryChangeBus(logger);
  return { publish: bus.publish, feed: new ChangeFeed(bus, { gapWaitMs: 1000 }) };
}
