/**
 * One subscription's changes, handed to its reader one at a time. Pushing never throws and never waits: the
 * committed write that publishes must not feel its subscribers. The reader (the event stream,
 * graphql/plugins/server-sent-events.ts) takes every change as soon as it comes and bounds its own backlog, so
 * this queue only holds what arrives within one turn of the event loop.
 */
export class ChangeStream<T> implements AsyncIterableIterator<T> {
  readonly #queue: T[] = [];
  #reader: { resolve(result: IteratorResult<T>): void; reject(error: unknown): void } | undefined;
  #failure: { error: unknown } | undefined;
  #closed = false;

  constructor(
    /** Called once, when the stream ends however it ends: stops what feeds it. */
    private readonly onClose: () => void,
  ) {}

  /** Whether the stream has ended: nothing pushed from now on is kept. */
  get closed(): boolean {
    return this.#closed;
  }

  push(value: T): void {
    if (this.#closed) return;
    const reader = this.#reader;
    this.#reader = undefined;
    if (reader) reader.resolve({ value, done: false });
    else this.#queue.push(value);
  }

  /** Ends the stream after the changes already queued. */
  end(): void {
    if (this.#closed) return;
    this.#close();
    const reader = this.#reader;
    this.#reader = undefined;
    reader?.resolve({ value: undefined, done: true });
  }

  /** Ends the stream with `error`, after the changes already queued. */
  fail(error: unknown): void {
    if (this.#closed) return;
    this.#failure = { error };
    this.#close();
    const reader = this.#reader;
    this.#reader = undefined;
    if (reader) {
      this.#failure = undefined;
      reader.reject(error);
    }
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#queue.length > 0) return Promise.resolve({ value: this.#queue.shift() as T, done: false });
    if (this.#failure) {
      const { error } = this.#failure;
      this.#failure = undefined;
      return Promise.reject(error);
    }
    if (this.#closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.#reader = { resolve, reject };
    });
  }

  return(): Promise<IteratorResult<T>> {
    this.#queue.length = 0;
    this.#failure = undefined;
    this.#close();
    const reader = this.#reader;
    this.#reader = undefined;
    reader?.resolve({ value: undefined, done: true });
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onClose();
  }
}
