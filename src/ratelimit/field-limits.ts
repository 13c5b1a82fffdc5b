import type { MaybePromise } from '@whatwg-node/promise-helpers';
import type { RateLimitConfig } from '../config/rate-limits.ts';
import { type ApiError, apiError } from '../contract/errors.ts';
import type { Charge, CounterStore, Take, WindowKind } from './counters/counter.ts';
import { andThen } from './maybe-promise.ts';

export interface FieldRefusal {
  error: ApiError;
  retryAfterSeconds: number;
}

/**
 * Takes one operation's calls of limited fields (count by field name) from `subject`'s per-field windows, all
 * or none; answers the refusal, if any.
 */
export type FieldLimiter = (
  subject: string,
  calls: ReadonlyMap<string, number>,
) => MaybePromise<FieldRefusal | undefined>;

/**
 * Per-field limits (config.fieldLimits: calls per caller per minute window, by field name), on the same
 * counter store as the request quotas. All of an operation's calls are taken at once, so that its aliases
 * and fragments cannot slip past the limit one by one, and stores shared by processes stay exact.
 */
export function createFieldLimiter(
  store: CounterStore,
  config: Pick<RateLimitConfig, 'fieldLimits' | 'minuteSeconds'>,
): FieldLimiter {
  const windows = new Map<string, WindowKind>(
    Object.keys(config.fieldLimits).map((name) => [
      name,
      { name: `field:${name}`, seconds: config.minuteSeconds },
    ]),
  );

  function chargeOf(name: string, calls: number): Charge {
    const window = windows.get(name);
    const limit = config.fieldLimits[name];
    // A field the schema limits but the configuration does not: a wiring mistake, to be loud about.
    if (!window || limit === undefined) throw new Error(`No per-field rate limit is configured for ${name}`);
    return { window, points: calls, limit };
  }

  function refusal(charges: Charge[], { windows: counted }: Take): FieldRefusal {
    const at = Math.max(
      0,
      charges.findIndex(({ points, limit }, i) => (counted[i]?.count ?? 0) + points > limit),
    );
    const { window, points, limit } = charges[at] as Charge;
    const left = Math.max(0, limit - (counted[at]?.count ?? 0));
    const msLeft = counted[at]?.msLeft || window.seconds * 1000;
    const retryAfterSeconds = Math.max(1, Math.ceil(msLeft / 1000));
    const name = window.name.slice('field:'.length);
    return {
      error: apiError('fieldRateLimited', {
        field: name,
        limit,
        seconds: window.seconds,
        points,
        left,
        retryAfter: retryAfterSeconds,
      }),
      retryAfterSeconds,
    };
  }

  return (subject, calls) => {
    const charges = [...calls].map(([name, count]) => chargeOf(name, count));
    return andThen(store.take(subject, charges), (take) => (take.taken ? undefined : refusal(charges, take)));
  };
}
