import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Caller, Quota } from '../contract/caller.ts';
import type { Validator } from '../contract/http-caching.ts';
import type { Db } from '../db/client.ts';
import type { HeldTransaction } from '../db/held-transaction.ts';
import type { Change } from '../events/change.ts';
import type { ChangeFeed } from '../events/feed.ts';
import type { KeyWatch } from '../keys/key-watch.ts';
import type { UsageCounts } from '../usage/counts.ts';

export interface Context {
  /** The database, or the request's held transaction's client when it has one. */
  prisma: Db;
  caller: Caller;
  quota: Quota;
  /** Held by the idempotency layer for a write sent with an Idempotency-Key; mutation fields run in its savepoints. */
  transaction?: HeldTransaction;
  /** Sends a write's committed changes to the subscribers (the store calls it through store/after-commit.ts). */
  publish: (changes: readonly Change[]) => void;
  /** The subscriptions' source of committed changes. */
  feed: ChangeFeed;
  /** A key's usage counts (`viewer { usage }`); absent where the gateway counts none. */
  readUsage?: (keyId: bigint) => Promise<UsageCounts>;
  /** Tells open subscriptions when their key is revoked or its scopes change. */
  keys: KeyWatch;
}

/**
 * What node:http hands to Yoga with each request; the rate-limit layer adds the caller and its quota, the
 * idempotency layer the transaction a keyed write runs in.
 */
export interface ServerContext {
  req: IncomingMessage;
  res: ServerResponse;
  caller?: Caller;
  quota?: Quota;
  transaction?: HeldTransaction;
  /** The answer's validator, made before it ran (HTTP caching); undefined: never kept. */
  validator?: Validator;
}
