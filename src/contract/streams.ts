import { apiError } from './errors.ts';

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
  apiError('slowConsumer', {
    eventsBehind: behind.events,
    bytesBehind: behind.bytes,
    maxEvents: limit.events,
    maxBytes: limit.bytes,
  });

/** The last event of a stream whose API key was revoked while it was open. */
export const keyRevoked = () => apiError('streamKeyRevoked');

/** The last event of a stream whose API key lost a scope the stream needed while it was open. */
export const scopeLost = (scope: string) => apiError('streamScopeLost', { scope });
