import { isPromise } from '@whatwg-node/promise-helpers';
import type { Plugin } from 'graphql-yoga';
import { ApiError, apiError } from '../../contract/errors.ts';
import { toGraphQLError } from '../../contract/graphql-error.ts';
import type { Context } from '../context.ts';

/**
 * Caps the subscriptions a caller keeps open at once (per plan, across every gateway process): a subscription
 * takes a lease from the caller's quota before it starts, refused with 429 TOO_MANY_SUBSCRIPTIONS at the cap,
 * and lets it go when its stream ends, however it ends (the client left, the gateway shuts down).
 */
export function useSubscriptionCap(): Plugin<Context> {
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      const started = (held: { release(): void } | ApiError) => {
        if (held instanceof ApiError) {
          setResultAndStopExecution({
            errors: [toGraphQLError(held, { httpStatus: true })],
          });
          return;
        }
        return {
          onSubscribeResult({ result }: { result: unknown }) {
            const streams = typeof result === 'object' && result !== null && Symbol.asyncIterator in result;
            if (!streams) {
              held.release();
              return;
            }
            return { onEnd: () => held.release() };
          },
        };
      };
      // The counters cannot be reached (Redis down, failing closed): refused as the rate limit refuses then.
      const unavailable = () => apiError('subscriptionLimitsUnavailable');
      let held: ReturnType<Context['quota']['holdSubscription']>;
      try {
        held = args.contextValue.quota.holdSubscription();
      } catch {
        return started(unavailable());
      }
      return isPromise(held) ? held.then(started, () => started(unavailable())) : started(held);
    },
  };
}
