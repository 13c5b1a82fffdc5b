import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { loadRateLimitConfig } from '../../src/config/rate-limits.ts';
import type { Caller } from '../../src/contract/caller.ts';
import { maskError } from '../../src/graphql/errors.ts';
import { createKeyLookup } from '../../src/keys/lookup.ts';
import { type Log, openCounterStore } from '../../src/ratelimit/counters.ts';
import { createRateLimitPlugin, limitField, rateLimitOf } from '../../src/ratelimit/plugin.ts';
import { createTestDatabase } from '../support/databases.ts';
import { silentLog } from './stores.ts';

// A small stand-in for the gateway: one Yoga instance with the rate-limit plugin first, a schema of a few
// fields that read what the plugin provides, and a REST stand-in plugin answering the other paths in
// `onRequest`, as the REST adapter does.
const schema = createSchema<{ caller: Caller }>({
  typeDefs: /* GraphQL */ `
    type Query { hello: String!, caller: String!, rateLimit: RateLimit! }
    type RateLimit { limit: Int!, remaining: Int!, resetAt: String! }
    type Mutation { placeOrder(quantity: Int!): Int! }
  `,
  resolvers: {
    Query: {
      hello: () => 'hello',
      caller: (_root, _args, { caller }) =>
        JSON.stringify(caller, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)),
      rateLimit: (_root, _args, context) => {
        const state = rateLimitOf(context);
        return { ...state, resetAt: state.resetAt.toISOString() };
      },
    },
    Mutation: {
      placeOrder: async (_root, args: { quantity: number }, context, info) => {
        await limitField(context, info, args);
        return args.quantity;
      },
    },
  },
});

const restStandIn: Plugin = {
  onRequest({ url, request, endResponse, fetchAPI }) {
    if (url.pathname === '/graphql') return;
    const json = (status: number, body: unknown) =>
      endResponse(
        new fetchAPI.Response(JSON.stringify(body), {
          status,
          headers: { 'content-type': 'application/json' },
        }),
      );
    if (url.pathname === '/pets' && request.method === 'GET') json(200, []);
    else json(404, { code: 'NOT_FOUND', message: `No operation at ${url.pathname}`, status: 404 });
  },
};

export async function startGateway(env: NodeJS.ProcessEnv = {}, log: Log = silentLog) {
  const database = await createTestDatabase();
  const config = loadRateLimitConfig(env);
  const counters = await openCounterStore(config, log);
  const findKey = createKeyLookup(database.db.prisma, {
    ttlMs: config.keyCacheTtlMs,
    maxEntries: config.keyCacheSize,
  });
  const yoga = createYoga({
    schema,
    batching: true,
    maskedErrors: { maskError: (error, message) => maskError(error, message) },
    plugins: [createRateLimitPlugin({ config, counters, findKey, log }), restStandIn],
  });
  const server = createServer(yoga);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** POSTs one operation, or a batch when given an array. */
  const graphql = (query: string | string[], headers: Record<string, string> = {}) =>
    fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(Array.isArray(query) ? query.map((q) => ({ query: q })) : { query }),
    });
  const rest = (path: string, headers: Record<string, string> = {}) => fetch(`${url}${path}`, { headers });

  return {
    url,
    prisma: database.db.prisma,
    counters,
    graphql,
    rest,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await counters.close();
      await database.drop();
    },
  };
}

export type Gateway = Awaited<ReturnType<typeof startGateway>>;
