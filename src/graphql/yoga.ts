import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { Db } from '../db/client.ts';
import type { Context } from './context.ts';
import { maskError } from './errors.ts';
import { useInt64Json } from './plugins/int64-json.ts';
import { useWritesNeedKey } from './plugins/writes-need-key.ts';
import { schema } from './schema.ts';

export interface ServerContext {
  req: IncomingMessage;
  res: ServerResponse;
}

const EXPLORER_QUERY = `# The demo catalogue. Reads need no key; for writes, create one with
#   npm run --silent apikey -- create --plan free
# and add it in the Headers tab below: { "X-API-Key": "psk_..." }
query Catalogue {
  pets(first: 10) {
    edges {
      node { id name status category { name } inventory { quantity status } }
    }
    pageInfo { hasNextPage endCursor }
  }
}
`;

/** The GraphQL server: schema, context, error masking, and the plugins of the layers in front of it. */
export function createGraphQLServer(options: { prisma: Db; plugins?: Plugin[] }) {
  return createYoga<ServerContext, Context>({
    schema,
    context: ({ req }) => ({
      prisma: options.prisma,
      caller: { kind: 'anonymous', ip: req.socket.remoteAddress ?? 'unknown' },
    }),
    maskedErrors: { maskError: (error, message) => maskError(error, message) },
    batching: { limit: 10 },
    landingPage: false,
    graphiql: {
      title: 'Pet Store Gateway',
      defaultQuery: EXPLORER_QUERY,
    },
    renderGraphiQL,
    plugins: [...(options.plugins ?? []), useWritesNeedKey(), useInt64Json()],
  });
}

export type GraphQLServer = ReturnType<typeof createGraphQLServer>;
