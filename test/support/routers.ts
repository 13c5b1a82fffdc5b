import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { composeServices, compositionHasErrors } from '@theguild/federation-composition';
import { parse } from 'graphql';

// Routers in front of the gateway, set up as docs/federation.md shows: each forwards the end user's X-API-Key
// to the gateway's subgraph, or its own key when the user sent none.

/** The name the gateway's subgraph has in the supergraph (docs/federation.md). */
export const PETSTORE = 'petstore';

export interface Subgraph {
  name: string;
  url: string;
  sdl: string;
}

/** The supergraph of the subgraphs, composed by @theguild/federation-composition; its errors thrown. */
export function composeSupergraph(subgraphs: readonly Subgraph[]): string {
  const result = composeServices(
    subgraphs.map(({ name, url, sdl }) => ({ name, url, typeDefs: parse(sdl) })),
  );
  if (compositionHasErrors(result)) {
    throw new Error(`composition failed:\n${result.errors.map((error) => error.message).join('\n')}`);
  }
  return result.supergraphSdl;
}

export interface RouterAnswer {
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked by assertions, not types
  data?: any;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
  /** The gateway's X-RateLimit-Remaining, passed back by the router (Hive Gateway's set-up). */
  remaining?: number;
}

export interface Router {
  /** Runs an operation as an end user with `key`, or one without a key. */
  query(query: string, key?: string): Promise<RouterAnswer>;
  close(): Promise<void>;
}

/** Hive Gateway's runtime, in-process, queried through its fetch: no port, as its own tests do. */
export function startHiveRouter(supergraph: string, routerKey: string): Router {
  const gateway = createGatewayRuntime({
    supergraph,
    logging: false,
    maskedErrors: false,
    propagateHeaders: {
      fromClientToSubgraphs: ({ request, subgraphName }) =>
        subgraphName === PETSTORE ? { 'x-api-key': request.headers.get('x-api-key') ?? routerKey } : {},
      fromSubgraphsToClient: ({ response, subgraphName }) => {
        const remaining = response.headers.get('x-ratelimit-remaining');
        return subgraphName === PETSTORE && remaining ? { 'x-ratelimit-remaining': remaining } : {};
      },
    },
  });
  return {
    async query(query, key) {
      const response = await gateway.fetch('http://router/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key && { 'x-api-key': key }) },
        body: JSON.stringify({ query }),
      });
      const remaining = response.headers.get('x-ratelimit-remaining');
      return { ...(await response.json()), ...(remaining && { remaining: Number(remaining) }) };
    },
    async close() {
      await gateway[Symbol.asyncDispose]();
    },
  };
}

/** Apollo Gateway in Apollo Server, queried with executeOperation; the user's key travels in the context. */
export async function startApolloRouter(supergraph: string, routerKey: string): Promise<Router> {
  const gateway = new ApolloGateway({
    supergraphSdl: supergraph,
    buildService: ({ name, url }) =>
      new RemoteGraphQLDataSource<{ apiKey?: string }>({
        url,
        willSendRequest({ request, context }) {
          if (name === PETSTORE) request.http?.headers.set('x-api-key', context.apiKey ?? routerKey);
        },
      }),
  });
  const server = new ApolloServer<{ apiKey?: string }>({ gateway });
  await server.start();
  return {
    async query(query, key) {
      const { body } = await server.executeOperation({ query }, { contextValue: { apiKey: key } });
      if (body.kind !== 'single') throw new Error('an incremental answer was not asked for');
      return body.singleResult as RouterAnswer;
    },
    close: () => server.stop(),
  };
}
