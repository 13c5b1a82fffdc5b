import { isPromise, type MaybePromise } from '@whatwg-node/promise-helpers';

/**
 * `onValue(value)`, at once when `value` is not a promise; `onError` handles a rejection of `value`. Like
 * @whatwg-node/promise-helpers' handleMaybePromise, which allocates wrapper objects at every step; on the
 * path every API request takes (the rate-limit layer), that garbage was measurable
 * (bench/rate-limit-overhead.ts).
 */
export function andThen<T, R>(
  value: MaybePromise<T>,
  onValue: (value: T) => MaybePromise<R>,
  onError?: (error: unknown) => MaybePromise<R>,
): MaybePromise<R> {
  return isPromise(value) ? value.then(onValue, onError) : onValue(value);
}
