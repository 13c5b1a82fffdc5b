import { z } from 'zod';
import { TRUSTED_DOCUMENTS_MODES } from '../contract/trusted-documents.ts';
import { wholeNumber } from './values.ts';

const atLeastOne = (unit: string) => wholeNumber({ min: 1, unit });

/** The limits on a GraphQL request, the response cache, and which requests may send document text. */
export const graphqlPart = z
  .object({
    GRAPHQL_MAX_BODY_BYTES: atLeastOne('bytes').default(64 * 1024),
    GRAPHQL_MAX_DEPTH: atLeastOne('levels').default(10),
    GRAPHQL_MAX_COST: atLeastOne('points').default(20_000),
    GRAPHQL_MAX_ALIASES: atLeastOne('aliases').default(15),
    GRAPHQL_MAX_DIRECTIVES: atLeastOne('directives').default(50),
    GRAPHQL_MAX_TOKENS: atLeastOne('tokens').default(2_000),
    RESPONSE_CACHE_ENTRIES: wholeNumber({ min: 0, unit: 'results', note: '0 turns the cache off' }).default(
      2_000,
    ),
    // What callers without a mode of their own may send (docs/trusted-documents.md); a key's own mode wins.
    TRUSTED_DOCUMENTS: z.enum(TRUSTED_DOCUMENTS_MODES).default('allow'),
    // The list path by plan (docs/architecture.md); off: every list is answered by the resolvers.
    LIST_PLANS: z.enum(['on', 'off']).default('on'),
    // A federation subgraph (docs/federation.md): entities and `_service`/`_entities` for a router; off: neither.
    FEDERATION: z.enum(['on', 'off'], 'must be one of on, off').default('off'),
    SUBSCRIPTION_HEARTBEAT_MS: atLeastOne('ms').default(15_000),
    SUBSCRIPTION_GAP_WAIT_MS: atLeastOne('ms').default(1_000),
    SUBSCRIPTION_BACKLOG_EVENTS: atLeastOne('events').default(1_000),
    SUBSCRIPTION_BACKLOG_BYTES: wholeNumber({ min: 1024, unit: 'bytes' }).default(1024 * 1024),
  })
  .transform((env) => ({
    graphqlLimits: {
      maxBodyBytes: env.GRAPHQL_MAX_BODY_BYTES,
      maxDepth: env.GRAPHQL_MAX_DEPTH,
      maxCost: env.GRAPHQL_MAX_COST,
      maxAliases: env.GRAPHQL_MAX_ALIASES,
      maxDirectives: env.GRAPHQL_MAX_DIRECTIVES,
      maxTokens: env.GRAPHQL_MAX_TOKENS,
    },
    /** Query results kept while the store is unchanged (SQLite only; see graphql/plugins/response-cache.ts). */
    responseCacheEntries: env.RESPONSE_CACHE_ENTRIES,
    trustedDocuments: env.TRUSTED_DOCUMENTS,
    /** Lists answered by one planned SQL statement (graphql/plan/). */
    listPlans: env.LIST_PLANS === 'on',
    /** Served as a federation subgraph: the schema with `_service` and `_entities` (graphql/schema.ts). */
    federation: env.FEDERATION === 'on',
    subscriptions: {
      /** A comment line on every open subscription stream this often, so that proxies keep it open. */
      heartbeatMs: env.SUBSCRIPTION_HEARTBEAT_MS,
      /** How long a change waits for an earlier one of its row, published by another process (events/in-order.ts). */
      gapWaitMs: env.SUBSCRIPTION_GAP_WAIT_MS,
      /** The most a stream holds that its client has not read: past either, it ends SLOW_CONSUMER. */
      backlog: { events: env.SUBSCRIPTION_BACKLOG_EVENTS, bytes: env.SUBSCRIPTION_BACKLOG_BYTES },
    },
  }));
