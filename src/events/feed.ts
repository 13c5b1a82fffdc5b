import type { ChangeBus } from './bus.ts';
import type { Change } from './change.ts';
import { ChangeStream } from './change-stream.ts';
import { InOrder } from './in-order.ts';

export interface Watch<T extends Change> {
  /** Which changes the stream carries. */
  accepts(change: Change): change is T;
  /**
   * The watched rows' versions now (by `rowOf`), read after the stream has begun to listen, so that no change
   * falls between the two. Rejecting ends the stream with that error.
   */
  baseline(): Promise<ReadonlyMap<string, number>>;
  /** A change after which the stream has nothing more to carry (its row is gone): the stream ends after it. */
  isLast?(change: T): boolean;
  /** Given how to end the stream with an error (its caller lost the right to it), answers how to stop watching. */
  guard?: Guard;
}

export type Guard = (end: (error: Error) => void) => () => void;

/**
 * The subscriptions' source: streams of committed changes, each row's in commit order. `end` ends every open
 * stream (the gateway is closing), and every stream opened after it.
 */
export class ChangeFeed {
  readonly #open = new Set<ChangeStream<Change>>();
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
   * One row's changes (`row` as `rowOf` names it), from the version it has now, until its last one (`isLast`).
   * `version` answers undefined for a row that does not exist (or that the caller may not see): then `missing()`
   * is thrown, before any stream.
   */
  async watchRow<T extends Change>(watch: {
    row: string;
    version: () => Promise<number | undefined>;
    accepts: (change: Change) => change is T;
    isLast: (change: T) => boolean;
    missing: () => Error;
    guard?: Guard;
  }): Promise<AsyncIterable<T>> {
    if ((await watch.version()) === undefined) throw watch.missing();
    return this.watch({
      accepts: watch.accepts,
      isLast: watch.isLast,
      guard: watch.guard,
      baseline: async () => new Map([[watch.row, (await watch.version()) ?? -1]]),
    });
  }

  /** Listens at once (before the response starts), so that the stream carries every change from now on. */
  watch<T extends Change>({ accepts, baseline, isLast, guard }: Watch<T>): AsyncIterable<T> {
    let inOrder: InOrder | undefined;
    let unlisten = () => {};
    let unguard = () => {};
    const stream: ChangeStream<T> = new ChangeStream<T>(() => {
      unlisten();
      unguard();
      inOrder?.close();
      this.#open.delete(stream as ChangeStream<Change>);
    });
    if (this.#ended) {
      stream.end();
      return stream;
    }
    this.#open.add(stream as ChangeStream<Change>);
    if (guard) unguard = guard((error) => stream.fail(error));
    const pass = (change: Change) => {
      stream.push(change as T);
      if (isLast?.(change as T)) stream.end();
    };
    // Changes that arrive while the baseline is read wait for it.
    const waiting: Change[] = [];
    unlisten = this.bus.listen((change) => {
      if (!accepts(change)) return;
      if (inOrder) inOrder.accept(change);
      else waiting.push(change);
    });
    baseline().then(
      (versions) => {
        if (stream.closed) return;
        inOrder = new InOrder(versions, pass, this.#gapWaitMs);
        for (const change of waiting.splice(0)) inOrder.accept(change);
      },
      (error: unknown) => stream.fail(error),
    );
    return stream;
  }

  /** Ends every stream, now and from now on. */
  end(): void {
    this.#ended = true;
    for (const stream of this.#open) stream.end();
  }

  get openStreams(): number {
    return this.#open.size;
  }
}
