import type { MaybePromise } from '@whatwg-node/promise-helpers';
import type { ApiError } from './errors.ts';
import type { Scope } from './scopes.ts';
import type { TrustedDocumentsMode } from './trusted-documents.ts';

/** Who is calling: an API key (with its plan and powers) or an anonymous client, identified by IP. */
export type Caller =
  | {
      kind: 'key';
      keyId: bigint;
      plan: string;
      ip: string;
      scopes: readonly Scope[];
      /** The key's own trusted-documents mode; null: the gateway's. */
      trustedDocuments: TrustedDocumentsMode | null;
    }
  | { kind: 'anonymous'; ip: string };

/**
 * What the caller may still spend, as the rate-limit layer counted this request, and the per-field limits it
 * keeps. The layer puts it on the server context; GraphQL reads it from its own context.
 */
export interface Quota {
  /** Requests allowed in the caller's tightest window (the one with fewer left; the minute on a tie). */
  readonly limit: number;
  /** Requests left in that window, this request counted; never negative, never above `limit`. */
  readonly remaining: number;
  /** When that window resets. */
  readonly resetAt: Date;
  /** Open subscriptions the caller may hold at once: its plan's cap, or an enterprise key's own. */
  readonly maxSubscriptions: number;
  /**
   * Takes one operation's calls of per-field-limited fields (count by field name) from the caller's limits,
   * all or none. Refused, nothing is counted, the operation's own request point is given back, and the answer
   * is the RATE_LIMITED error to refuse the whole operation with. Called once per operation, before it runs.
   */
  limitFields(calls: ReadonlyMap<string, number>): MaybePromise<ApiError | undefined>;
  /**
   * Takes a place among the caller's open subscriptions (capped per plan, across every gateway process) for as
   * long as the subscription stays open: release it when the stream ends. Refused, the operation's request
   * point is given back and the answer is the TOO_MANY_SUBSCRIPTIONS error to refuse it with.
   */
  holdSubscription(): MaybePromise<{ release(): void } | ApiError>;
}
