import { ApiError } from './errors.ts';

/** How far behind a subscription stream fell when it was ended: what it had not yet taken, and the one more. */
export interface Backlog {
  events: number;
  bytes: number;
}

/**
 * The last event of a stream whose client fell behind its backlog limit (SUBSCRIPTION_BACKLOG_EVENTS or
 * SUBSCRIPTION_BACKLOG_BYTES): its events were dropped and the stream ended.
 */
export const slowConsumer = (behind: Backlog, limit: Backlog) =>
  new ApiError(
    'SLOW_CONSUMER',
    `This stream fell ${behind.events} event(s) (${behind.bytes} bytes) behind, past its limit of ${limit.events} ` +
      `events or ${limit.bytes} bytes not yet read, so it was ended and its events dropped: read events as they ` +
      'come, then subscribe again and read the current state (each event has a version to compare)',
  );

/**
 * Retry-After of a subscription refused TOO_MANY_SUBSCRIPTIONS: a place frees when one of the caller's streams
 * ends, which nobody can tell in advance, so a client tries again after a short while.
 */
export const SUBSCRIPTION_CAP_RETRY_AFTER_SECONDS = 5;

/** The last event of a stream whose API key was revoked while it was open. */
export const keyRevoked = () =>
  new ApiError(
    'UNAUTHENTICATED',
    'The API key this subscription was opened with has been revoked, so the stream has ended: subscribe again with a valid key',
  );

/** The last event of a stream whose API key lost a scope the stream needed while it was open. */
export const scopeLost = (scope: string) =>
  new ApiError(
    'FORBIDDEN',
    `The API key this subscription was opened with no longer has the scope ${scope}, which this stream needs, so the stream has ended`,
  );
