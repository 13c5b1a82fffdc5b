import { isPromise, type MaybePromise } from '@whatwg-node/promise-helpers';

/**
 * `onValue(value)`, at once when `value` is not a promise; `onError` handles a rejection of `value`. What
 * @whatwg-node/promise-helpers' handleMaybePromise does, without the wrapper objects it allocates at every
 * step: this runs on the path every API request takes (the rate-limit layer).
 */
export function andThen<T, R>(
  value: MaybePromise<T>,
  onValue: (value: T) => MaybePromise<R>,
  onError?: (error: unknown) => MaybePromise<R>,
): MaybePromise<R> {
  return isPromise(value) ? value.then(onValue, onError) : onValue(value);
}
