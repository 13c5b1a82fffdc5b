import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { createYoga } from 'graphql-yoga';
import type { Db } from '../db/client.ts';
import type { Logger } from '../observability/logger.ts';
import type { createRateLimitPlugin } from '../ratelimit/plugin.ts';
import { type RestOptions, useRest } from '../rest/router.ts';
import type { Context } from './context.ts';
import { withPetsByIdDeprecation } from './deprecation.ts';
import { maskError } from './errors.ts';
import { useBodyLimit } from './plugins/body-limit.ts';
import { useClientErrorCodes } from './plugins/client-error-codes.ts';
import { useCsrfPrevention } from './plugins/csrf-prevention.ts';
import { useInt64Json } from './plugins/int64-json.ts';
import { useOperationNames } from './plugins/operation-names.ts';
import { type QueryLimits, useQueryLimits } from './plugins/query-limits.ts';
import { useWritesNeedKey } from './plugins/writes-need-key.ts';
import { schema } from './schema.ts';

export interface ServerContext {
  req: IncomingMessage;
  res: ServerResponse;
}

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
  rest: RestOptions;
  limits: QueryLimits & { maxBodyBytes: number };
  production: boolean;
  logger: Logger;
  /** The rate-limit layer: first, so that it counts and identifies the caller before anything else runs. */
  rateLimit: ReturnType<typeof createRateLimitPlugin>;
}) {
  return createYoga<ServerContext, Context>({
    schema: withPetsByIdDeprecation(schema, options.rest.petsByIdDeprecation),
    context: ({ req }) => ({
      prisma: options.prisma,
      caller: { kind: 'anonymous', ip: req.socket.remoteAddress ?? 'unknown' },
    }),
    maskedErrors: { maskError: (error, message) => maskError(error, message) },
    batching: { limit: 10 },
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
      useInt64Json(),
      useRest(options.rest),
    ],
  });
}

export type GraphQLServer = ReturnType<typeof createGraphQLServer>;
