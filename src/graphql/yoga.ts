import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { GRAPHQL_ENDPOINT, MAX_BATCH_SIZE } from '../contract/endpoints.ts';
import type { Deprecation } from '../contract/pets-by-id.ts';
import type { Db } from '../db/client.ts';
import type { Logger } from '../observability/logger.ts';
import type { Context, ServerContext } from './context.ts';
import { withPetsByIdDeprecation } from './deprecation.ts';
import { maskError } from './errors.ts';
import { useBodyLimit } from './plugins/body-limit.ts';
import { useClientErrorCodes } from './plugins/client-error-codes.ts';
import { useCsrfPrevention } from './plugins/csrf-prevention.ts';
import { useFieldLimits } from './plugins/field-limits.ts';
import { useInt64Json } from './plugins/int64-json.ts';
import { useOperationNames } from './plugins/operation-names.ts';
import { type QueryLimits, useQueryLimits } from './plugins/query-limits.ts';
import { type ResponseCacheOptions, useResponseCache } from './plugins/response-cache.ts';
import { useWritesNeedKey } from './plugins/writes-need-key.ts';
import { schema } from './schema.ts';

const EXPLORER_QUERY = `# The demo catalogue: reads need no key. For writes,
#   npm run --silent apikey -- create --plan free
# and paste the key in the Headers tab below.
query Catalogue {
  pets(first: 10) {
    edges {
      node { id name status category { name } inventory { quantity status } }
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

/** The GraphQL server: schema, context, error masking, and the plugins of the layers in front of it. */
export function createGraphQLServer(options: {
  prisma: Db;
  petsByIdDeprecation: Deprecation;
  limits: QueryLimits & { maxBodyBytes: number };
  production: boolean;
  logger: Logger;
  /** The rate-limit layer: first, so that it identifies the caller and counts before anything else runs. */
  rateLimit: Plugin<Record<string, never>, ServerContext>;
  /** The REST adapter: last, so that REST requests pass through every plugin above it. */
  rest: Plugin;
  /** Absent: every operation executes. */
  responseCache?: ResponseCacheOptions;
}) {
  return createYoga<ServerContext, Context>({
    schema: withPetsByIdDeprecation(schema, options.petsByIdDeprecation),
    graphqlEndpoint: GRAPHQL_ENDPOINT,
    // Yoga's own health check answers every URL that merely ends with this string (/pets/health, ?x=/health),
    // before any plugin runs, so unmetered. /healthz is served by the ops routes instead; a serialized URL never
    // ends with a space, so this turns Yoga's check off.
    healthCheckEndpoint: ' ',
    context: ({ caller, quota }) => {
      if (!caller || !quota) throw new Error('The rate-limit layer identified no caller for this request');
      return { prisma: options.prisma, caller, quota };
    },
    maskedErrors: { maskError: (error, message) => maskError(error, message) },
    batching: { limit: MAX_BATCH_SIZE },
    maxRequestBodySize: false, // useBodyLimit's instead
    logging: options.logger,
    landingPage: false,
    graphiql: {
      title: 'Pet Store Gateway',
      defaultQuery: EXPLORER_QUERY,
      headers: EXPLORER_HEADERS,
      defaultHeaders: EXPLORER_HEADERS,
      defaultEditorToolsVisibility: 'headers',
    },
    renderGraphiQL,
    plugins: [
      useOperationNames(),
      options.rateLimit,
      useCsrfPrevention(),
      useBodyLimit(options.limits.maxBodyBytes),
      useQueryLimits(options.limits, { production: options.production }),
      useClientErrorCodes(),
      useWritesNeedKey(),
      useFieldLimits(), // after the key check: an anonymous write must not spend a caller's field limit
      useInt64Json(),
      // After every plugin with a say in execution, so that a cached result passes through their hooks too.
      options.responseCache ? useResponseCache(options.responseCache) : {},
      options.rest,
    ],
  });
}
