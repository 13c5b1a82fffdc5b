import type { Change } from './change.ts';

/**
 * Carries committed changes from the process that made them to every gateway process's subscribers: within
 * this process, through the cluster primary (WORKERS > 1), or through Redis pub/sub (REDIS_URL).
 */
export interface ChangeBus {
  /** Sends committed changes to every listener of every process; never throws (a lost event is logged). */
  publish(changes: readonly Change[]): void;
  /** Calls `listener` with every change published from now on, by any process; answers how to stop. */
  listen(listener: (change: Change) => void): () => void;
  close(): Promise<void>;
}

/** The part of a pino logger the bus uses. */
export interface BusLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/**
 * This process's listeners, each called with every change that reaches the process. A listener that throws is
 * logged and the others still get the change: delivery runs inside a committed write's request, or in the
 * handler of a message from another process, and neither may fail because of a subscriber.
 */
export class Listeners {
  readonly #listeners = new Set<(change: Change) => void>();

  constructor(private readonly log: BusLog) {}

  add(listener: (change: Change) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  deliver(change: Change): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (error) {
        this.log.warn({ err: error }, 'a change listener failed: its subscriber missed the change');
      }
    }
  }
}

/** One process: the changes go straight to its own listeners. */
export function openMemoryChangeBus(log: BusLog): ChangeBus {
  const listeners = new Listeners(log);
  return {
    publish: (changes) => {
      for (const change of changes) listeners.deliver(change);
    },
    listen: (listener) => listeners.add(listener),
    close: async () => {},
  };
}
