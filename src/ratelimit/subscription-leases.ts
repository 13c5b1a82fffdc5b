import { randomUUID } from 'node:crypto';
import type { MaybePromise } from '@whatwg-node/promise-helpers';
import type { RateLimitConfig } from '../config/rate-limits.ts';
import type { CounterStore, Log } from './counters/counter.ts';
import { andThen } from './maybe-promise.ts';

/** An open subscription's place in its caller's cap, held until released. */
export interface Lease {
  release(): void;
}

/** Takes a lease for one more open subscription of `subject`, or answers undefined when `cap` are open. */
export type HoldSubscription = (subject: string, cap: number) => MaybePromise<Lease | undefined>;

/**
 * Open subscriptions per caller, as leases in the counter store (shared by every process with Redis or in
 * the cluster primary). A lease is renewed at a third of its time to live while its stream is open; a process
 * that dies stops renewing, and its leases lapse.
 */
export function createSubscriptionLeases(
  store: CounterStore,
  config: Pick<RateLimitConfig, 'subscriptionLeaseSeconds'>,
  log: Log,
): HoldSubscription {
  const ttlMs = config.subscriptionLeaseSeconds * 1000;
  return (subject, cap) => {
    const id = randomUUID();
    return andThen(store.holdLease(subject, id, cap, ttlMs), (held) => {
      if (!held) return undefined;
      const renew = setInterval(() => {
        Promise.resolve()
          .then(() => store.holdLease(subject, id, Number.MAX_SAFE_INTEGER, ttlMs))
          .catch((error: unknown) => log.warn({ error: String(error) }, 'subscription lease not renewed'));
      }, ttlMs / 3);
      renew.unref();
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          clearInterval(renew);
          Promise.resolve()
            .then(() => store.dropLease(subject, id))
            .catch(() => {}); // It lapses at its expiry.
        },
      };
    });
  };
}
