import { isPromise, type MaybePromise } from '@whatwg-node/promise-helpers';
import type { Caller, Quota } from '../contract/caller.ts';
import { type ApiError, apiError } from '../contract/errors.ts';
import type { FieldLimiter } from './field-limits.ts';
import type { Identity } from './identify.ts';
import {
  type Admitted,
  type Budget,
  type Decision,
  type RateLimiter,
  type Refused,
  tightestWindow,
  type WindowState,
} from './limiter.ts';
import { andThen } from './maybe-promise.ts';
import type { HoldSubscription, Lease } from './subscription-leases.ts';

/** The layer's counting, shared by every request's quota. */
export interface Counting {
  limiter: RateLimiter;
  limitFields: FieldLimiter;
  holdSubscription: HoldSubscription;
}

/** Points a request paid in one admission, and how many of them it still holds. */
interface Payment {
  paid: Admitted;
  held: number;
}

/**
 * One request's passage through the rate-limit layer: who pays, what it paid and from which windows, and what
 * its response shows. It is the `quota` of the GraphQL context.
 */
export class RequestQuota implements Quota {
  /** The latest decision, whose windows the response's headers show. */
  decision: Decision | undefined;
  /** Set by a refusal: a 429 response carries it as Retry-After. */
  retryAfterSeconds: number | undefined;
  /** Operations admitted (the entries of a batch), and how many of them a per-field limit refused. */
  operations = 0;
  refusedOperations = 0;
  // Oldest first: a batch pays for its first operation before the rest.
  readonly #payments: Payment[] = [];

  constructor(
    readonly identity: Identity,
    private readonly counting: Counting,
    /** Which of the caller's budgets counts this request: its response's headers name it. */
    readonly budget: Budget = 'plan',
  ) {}

  get caller(): Caller {
    return this.identity.caller;
  }

  get maxSubscriptions(): number {
    return this.identity.maxSubscriptions;
  }

  get limit(): number {
    return this.#shown().limit;
  }

  get remaining(): number {
    return this.#shown().remaining;
  }

  get resetAt(): Date {
    return new Date(this.#shown().resetsAt);
  }

  /** Every operation of the request was refused by a per-field limit. */
  get everyOperationRefused(): boolean {
    return this.operations > 0 && this.refusedOperations >= this.operations;
  }

  /**
   * Takes `operations` more requests from the caller's windows. Refused, the request gives back what it holds
   * (a refused request consumes nothing) and the refusal is thrown as an ApiError.
   */
  pay(operations: number): MaybePromise<void> {
    const { subject, limits } = this.identity;
    return andThen(this.counting.limiter.admit(subject, limits, operations), (decision) => {
      this.decision = decision;
      if (decision.admitted) {
        this.#payments.push({ paid: decision, held: operations });
        this.operations += operations;
        return;
      }
      this.retryAfterSeconds = decision.retryAfterSeconds;
      return andThen(this.#giveBack(this.operations), () => {
        throw refusalError(decision, this.identity.caller, this.budget);
      });
    });
  }

  limitFields(calls: ReadonlyMap<string, number>): MaybePromise<ApiError | undefined> {
    return andThen(this.counting.limitFields(this.identity.subject, calls), (refusal) => {
      if (!refusal) return undefined;
      this.refusedOperations += 1;
      this.retryAfterSeconds = refusal.retryAfterSeconds;
      return this.#refuse(refusal.error);
    });
  }

  holdSubscription(): MaybePromise<Lease | ApiError> {
    const { caller, subject, maxSubscriptions: cap } = this.identity;
    return andThen(this.counting.holdSubscription(subject, cap), (lease) => {
      if (lease) return lease;
      this.refusedOperations += 1;
      const plan = caller.kind === 'key' ? caller.plan : null;
      return this.#refuse(apiError('tooManySubscriptions', { plan, cap }));
    });
  }

  /**
   * An operation refused after its admission gives its point back, and its refusal still counts toward the
   * ban (or it would be a free retry for ever): the refusal that starts the ban answers KEY_BANNED.
   */
  #refuse(refusal: ApiError): MaybePromise<ApiError> {
    return andThen(this.#giveBack(1), () => {
      const windows = this.decision?.windows;
      if (!windows) return refusal;
      return andThen(this.counting.limiter.countRefusal(this.identity.subject, windows), (ban) => {
        if (!ban) return refusal;
        this.decision = ban;
        this.retryAfterSeconds = ban.retryAfterSeconds;
        return refusalError(ban, this.identity.caller, this.budget);
      });
    });
  }

  /** Gives back up to `points` the request holds, newest payment first, each to the windows it came from. */
  #giveBack(points: number): MaybePromise<void> {
    const pending: Promise<void>[] = [];
    for (let i = this.#payments.length - 1; i >= 0 && points > 0; i--) {
      const payment = this.#payments[i] as Payment;
      const returned = Math.min(points, payment.held);
      payment.held -= returned;
      points -= returned;
      if (returned === 0) continue;
      const { subject } = this.identity;
      const shown = andThen(this.counting.limiter.giveBack(subject, payment.paid, returned), (landed) =>
        this.#showRefund(payment.paid, returned, landed),
      );
      if (isPromise(shown)) pending.push(shown);
    }
    if (pending.length > 0) return Promise.all(pending).then(() => {});
  }

  /** A refund that landed in the window the response shows leaves that much more in it. */
  #showRefund(paid: Admitted, points: number, landed: boolean[]): void {
    const shown = this.decision?.windows;
    if (!shown) return;
    shown.forEach((window: WindowState, i) => {
      if (!landed[i] || window.id === 0 || window.id !== paid.windows[i]?.id) return;
      window.remaining = Math.min(window.limit, window.remaining + points);
    });
  }

  #shown(): WindowState {
    if (!this.decision) throw new Error('The rate-limit layer has not counted this request');
    return tightestWindow(this.decision.windows);
  }
}

function refusalError(decision: Refused, caller: Caller, budget: Budget): ApiError {
  const retryAfter = decision.retryAfterSeconds;
  if (decision.code === 'KEY_BANNED') return apiError('keyBanned', { retryAfter });
  const { limit, policy } = decision.refusedBy;
  const who = caller.kind === 'key' ? 'key' : 'address';
  return apiError('rateLimited', { limit, per: policy, who, budget, retryAfter });
}
