/**
 * Wraps an expensive gathering so that calls within `ms` of the last one started share its result: a burst
 * of calls (scrapes of /metrics) gathers once. A failed gathering is not kept.
 */
export function reuseFor<T>(ms: number, gather: () => Promise<T>, now: () => number = Date.now) {
  let last: { startedAt: number; result: Promise<T>; settled: boolean } | undefined;
  return (): Promise<T> => {
    const at = now();
    if (last && (!last.settled || at - last.startedAt < ms)) return last.result;
    const entry = { startedAt: at, result: gather(), settled: false };
    last = entry;
    entry.result.then(
      () => {
        entry.settled = true;
      },
      () => {
        if (last === entry) last = undefined;
      },
    );
    return entry.result;
  };
}
