/**
 * Starts reads queued during one turn of the event loop together, in its check phase. Prisma answers the
 * `findUnique` calls made in the same tick with one statement per shape (`WHERE id IN (...)`), but requests that
 * arrive together each reach their resolver in a tick of their own; held here until the sockets read in this turn
 * have all been parsed, concurrent reads by id share their statements and round trips (docs/performance.md).
 */
export function readTogether<T>(read: () => PromiseLike<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    queued.push({ read, resolve, reject });
    if (queued.length === 1) setImmediate(startQueued);
  });
}

interface QueuedRead {
  read: () => PromiseLike<unknown>;
  resolve: (value: never) => void;
  reject: (reason: unknown) => void;
}

let queued: QueuedRead[] = [];

function startQueued() {
  const reads = queued;
  queued = [];
  // Prisma's queries are lazy: `then` is what sends one, so every read is sent here, in this one tick.
  for (const { read, resolve, reject } of reads) {
    try {
      read().then(resolve as (value: unknown) => void, reject);
    } catch (error) {
      reject(error);
    }
  }
}
