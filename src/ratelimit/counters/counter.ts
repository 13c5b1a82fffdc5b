import type { MaybePromise } from '@whatwg-node/promise-helpers';
import type { RateLimitConfig } from '../../config/rate-limits.ts';

/** A kind of fixed window, e.g. a caller's minute: `seconds` long from the first point taken in it. */
export interface WindowKind {
  name: string;
  seconds: number;
}

/** Points to take from one window of a key, unless that would bring its count past `limit`. */
export interface Charge {
  window: WindowKind;
  points: number;
  limit: number;
}

/** One window of a key, as a call left it. */
export interface WindowCount {
  /** Points taken in the window (0 when none is open). */
  count: number;
  /** Milliseconds until the window ends (0 when none is open). */
  msLeft: number;
  /** Which window this is, so that points go back to it alone (0 when none is open). */
  id: number;
}

export interface Take {
  /** Whether the charges were taken; when not, nothing was. */
  taken: boolean;
  /** The window of each charge, in the order of the charges. */
  windows: WindowCount[];
}

/** Points to give back to the window of a key that `id` names. */
export interface Refund {
  window: WindowKind;
  id: number;
  points: number;
}

/**
 * Where rate-limit counters live: in this process, in the cluster primary (shared by its workers), or in
 * Redis shared by every gateway process. One counter per key and window kind, whatever the traffic.
 */
export interface CounterStore {
  /**
   * Takes every charge from its window of `key` when each stays within its limit, else takes nothing: all or
   * none, atomically. A window opens with the first point taken in it; a charge of 0 points only reads.
   * Counters in this process answer at once; the others with a promise.
   */
  take(key: string, charges: readonly Charge[]): MaybePromise<Take>;
  /**
   * Gives points back to the windows they were taken from: a window that has ended (or was replaced by a
   * newer one) gets nothing, and no count goes below zero. Answers, per refund, whether it landed.
   */
  giveBack(key: string, refunds: readonly Refund[]): MaybePromise<boolean[]>;
  /**
   * Holds lease `id` of `key` for `ttlMs` from now: a new lease only while fewer than `limit` unexpired leases
   * of `key` are held, a renewal (of a lease still held) always. Answers whether it is held. The leases of a
   * holder that stopped renewing (a process that died) lapse at their expiry.
   */
  holdLease(key: string, id: string, limit: number, ttlMs: number): MaybePromise<boolean>;
  /** Lets lease `id` of `key` go. */
  dropLease(key: string, id: string): MaybePromise<void>;
  /** How many unexpired leases of `key` are held (the usage page's open subscriptions). */
  countLeases(key: string): MaybePromise<number>;
  status(): CounterStoreStatus;
  close(): Promise<void>;
}

export type CounterStoreStatus =
  | { store: 'memory' }
  | { store: 'cluster' }
  | { store: 'redis'; connected: boolean; onFailure: RateLimitConfig['onRedisFailure'] };

/** The part of a pino logger the rate-limit layer uses. */
export interface Log {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}
