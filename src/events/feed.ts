import { Repeater } from 'graphql-yoga';
import type { ChangeBus } from './bus.ts';
import type { Change } from './change.ts';
import { InOrder } from './in-order.ts';

export interface Watch<T extends Change> {
  /** Which changes the stream carries. */
  accepts(change: Change): change is T;
  /**
   * The watched rows' versions now (by `rowOf`), read after the stream has begun to listen, so that no change
   * falls between the two. Rejecting ends the stream with that error.
   */
  baseline(): Promise<ReadonlyMap<string, number>>;
}

/**
 * The subscriptions' source: streams of committed changes, each row's in commit order. `end` completes every
 * open stream (the gateway is shutting down) and every stream opened after it.
 */
export class ChangeFeed {
  readonly #open = new Set<() => void>();
  #ended = false;

  readonly #gapWaitMs: number;

  constructor(
    private readonly bus: ChangeBus,
    /** How long a change waits for an earlier one of its row that is still on its way (in-order.ts). */
    { gapWaitMs }: { gapWaitMs: number },
  ) {
    this.#gapWaitMs = gapWaitMs;
  }

  /**
   * One row's changes (`row` as `rowOf` names it), from the version it has now. `version` answers undefined for
   * a row that does not exist (or that the caller may not see): then `missing()` is thrown, before any stream.
   */
  async watchRow<T extends Change>(watch: {
    row: string;
    version: () => Promise<number | undefined>;
    accepts: (change: Change) => change is T;
    missing: () => Error;
  }): Promise<AsyncIterable<T>> {
    if ((await watch.version()) === undefined) throw watch.missing();
    return this.watch({
      accepts: watch.accepts,
      baseline: async () => new Map([[watch.row, (await watch.version()) ?? -1]]),
    });
  }

  watch<T extends Change>({ accepts, baseline }: Watch<T>): AsyncIterable<T> {
    return new Repeater<T>(async (push, stop) => {
      if (this.#ended) return stop();
      this.#open.add(stop);
      // Changes that arrive while the baseline is read wait for it.
      const waiting: T[] = [];
      let inOrder: InOrder | undefined;
      const unlisten = this.bus.listen((change) => {
        if (!accepts(change)) return;
        if (inOrder) inOrder.accept(change);
        else waiting.push(change);
      });
      try {
        inOrder = new InOrder(await baseline(), (change) => void push(change as T), this.#gapWaitMs);
        for (const change of waiting) inOrder.accept(change);
        await stop;
      } finally {
        unlisten();
        inOrder?.close();
        this.#open.delete(stop);
      }
    });
  }

  /** Completes every stream, now and from now on. */
  end(): void {
    this.#ended = true;
    for (const stop of this.#open) stop();
  }

  get openStreams(): number {
    return this.#open.size;
  }
}
