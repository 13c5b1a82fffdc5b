import type { GraphQLResolveInfo } from 'graphql';
import { getFieldIdentity, getGraphQLRateLimiter, type Identity, type Store } from 'graphql-rate-limit';
import type { RateLimitConfig } from '../config/rate-limits.ts';
import type { Counter, CounterStore } from './counters.ts';

export interface FieldRefusal {
  message: string;
  retryAfterSeconds: number;
}

/** Checks one call of a field against its per-caller limit; answers the refusal, if any. */
export type FieldLimiter = (
  subject: string,
  info: GraphQLResolveInfo,
  args: Record<string, unknown>,
) => Promise<FieldRefusal | undefined>;

/**
 * Per-field limits (config.fieldLimits, calls per caller per minute window) with graphql-rate-limit's
 * core, on the same counter store as the request quotas.
 */
export function createFieldLimiter(
  store: CounterStore,
  config: Pick<RateLimitConfig, 'fieldLimits' | 'minuteSeconds'>,
): FieldLimiter {
  const counter = store.limiter({ name: 'field', points: 0, windowSeconds: config.minuteSeconds });
  const limit = getGraphQLRateLimiter({
    identifyContext: (subject: string) => subject,
    store: new CounterBackedStore(counter),
  });
  return async (subject, info, args) => {
    const max = config.fieldLimits[info.fieldName];
    if (max === undefined) throw new Error(`No per-field rate limit is configured for ${info.fieldName}`);
    const refused = await limit(
      { parent: undefined, args, context: subject, info },
      { max, window: `${config.minuteSeconds}s`, uncountRejected: true },
    );
    if (!refused) return undefined;
    const window = await counter.get(
      keyOf({ contextIdentity: subject, fieldIdentity: getFieldIdentity(info.fieldName, [], args) }),
    );
    const retryAfterSeconds = Math.max(1, Math.ceil((window?.msBeforeNext ?? 0) / 1000));
    return {
      message: `${info.fieldName} is limited to ${max} calls per ${config.minuteSeconds} s per caller; retry in ${retryAfterSeconds} s`,
      retryAfterSeconds,
    };
  };
}

/**
 * graphql-rate-limit's stores keep a list of call timestamps per identity, read and then written back,
 * which neither bounds memory nor is atomic across processes. This Store keeps a counter instead.
 * Reading increments it atomically and answers with as many timestamps (all "now", so all inside the
 * window) as there were calls before this one; the core then refuses exactly when the counter went
 * past the maximum. For a refused call (with `uncountRejected`) the core writes back one timestamp
 * fewer than the counter holds, and that difference is taken back off the counter.
 */
class CounterBackedStore implements Store {
  private readonly counted = new WeakMap<Identity, number>();

  constructor(private readonly counter: Counter) {}

  async getForIdentity(identity: Identity): Promise<readonly number[]> {
    const { consumedPoints } = await this.counter.penalty(keyOf(identity));
    this.counted.set(identity, consumedPoints);
    return new Array<number>(Math.max(0, consumedPoints - 1)).fill(Date.now());
  }

  async setForIdentity(identity: Identity, timestamps: readonly number[]): Promise<void> {
    const surplus = (this.counted.get(identity) ?? timestamps.length) - timestamps.length;
    if (surplus > 0) await this.counter.reward(keyOf(identity), surplus);
  }
}

function keyOf(identity: Identity): string {
  return `${identity.contextIdentity}:${identity.fieldIdentity}`;
}
