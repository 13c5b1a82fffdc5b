import type { Db } from './client.ts';

/**
 * A transaction held open while a request is handled, and ended by whoever holds it: the request's work runs in
 * savepoints of it, then it commits together with one last write, or rolls back, as a whole.
 */
export interface HeldTransaction {
  /** The client whose every statement runs in this transaction. */
  readonly prisma: Db;
  /** Whether any work has been started in a savepoint. */
  readonly worked: boolean;
  /** Settles when the transaction has committed or rolled back, however it ended (the time limit included). */
  readonly ended: Promise<void>;
  /**
   * Runs `work` in a savepoint, one at a time: when it throws, what it wrote is undone and the transaction goes
   * on, as if the work had had a transaction of its own (on PostgreSQL a failed statement would otherwise abort
   * the whole transaction). `work` gets the savepoint's client: Prisma opens a nested `$transaction` (the
   * store's, as a savepoint in turn) only on the innermost client.
   */
  savepoint<T>(work: (prisma: Db) => Promise<T>): Promise<T>;
  /**
   * Runs `run` once the transaction has committed; never when it rolls back. A `run` that throws does not
   * make `commit` reject: the transaction has committed, and its holder must answer so.
   */
  afterCommit(run: () => void): void;
  /** Runs `last` in the transaction and commits; rejects, with everything undone, when either fails. */
  commit(last: (prisma: Db) => Promise<unknown>): Promise<void>;
  /** Undoes everything; never rejects (a transaction that failed otherwise has ended all the same). */
  rollback(): Promise<void>;
}

export interface HoldOptions {
  /** Longest the transaction stays open: then it rolls back on its own, and `commit` rejects. */
  timeoutMs: number;
  /** Longest wait to begin it: for a pooled connection, or on SQLite for the write lock. */
  maxWaitMs: number;
}

type Ending = { commit: false; reason: string } | { commit: true; last: (prisma: Db) => Promise<unknown> };

/** Begins a transaction and hands it over open; it ends when its holder says so, or at `timeoutMs`. */
export function holdTransaction(prisma: Db, { timeoutMs, maxWaitMs }: HoldOptions): Promise<HeldTransaction> {
  let end: (ending: Ending) => void = () => {};
  const ending = new Promise<Ending>((resolve) => {
    end = resolve;
  });
  return new Promise((handOver, fail) => {
    const settled = prisma.$transaction(
      async (tx) => {
        const deadline = setTimeout(
          () => end({ commit: false, reason: `it was open longer than ${timeoutMs} ms` }),
          timeoutMs,
        );
        handOver(held(tx as unknown as Db, settled, end));
        const decided = await ending;
        clearTimeout(deadline);
        if (!decided.commit) throw new Error(`The transaction was rolled back: ${decided.reason}`);
        await decided.last(tx as unknown as Db);
      },
      // Prisma's own limit is a backstop behind the deadline above, which ends the transaction cleanly.
      { timeout: timeoutMs + 1_000, maxWait: maxWaitMs },
    );
    // Before the hand-over this is a failure to begin; after it, `commit` and `rollback` report the outcome.
    settled.catch(fail);
  });
}

// The transaction's client is Prisma's interactive-transaction client: the full client's model API and
// `$transaction` (nested, as a savepoint), without $connect, $disconnect, $on and $extends, which nothing
// that runs inside a request calls. Hence the casts to `Db`.
function held(prisma: Db, settled: Promise<void>, end: (ending: Ending) => void): HeldTransaction {
  let worked = false;
  const committed: (() => void)[] = [];
  // Prisma's savepoints are a stack and it refuses a second nested transaction beside an open one (the
  // operations of a batch run side by side), so they run one after the other.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    prisma,
    get worked() {
      return worked;
    },
    ended: settled.then(
      () => {},
      () => {},
    ),
    savepoint(work) {
      worked = true;
      const run = queue.then(() => prisma.$transaction((nested) => work(nested as unknown as Db)));
      queue = run.catch(() => {});
      return run;
    },
    afterCommit(run) {
      committed.push(run);
    },
    commit(last) {
      end({ commit: true, last });
      return settled.then(() => {
        for (const run of committed.splice(0)) {
          try {
            run();
          } catch {
            // See afterCommit above: what runs here reports its own failures.
          }
        }
      });
    },
    rollback() {
      end({ commit: false, reason: 'its holder rolled it back' });
      return settled.catch(() => {});
    },
  };
}
