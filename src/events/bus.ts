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

/** This process's listeners, each called with every change that reaches the process. */
export class Listeners {
  readonly #listeners = new Set<(change: Change) => void>();

  add(listener: (change: Change) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  deliver(change: Change): void {
    for (const listener of this.#listeners) listener(change);
  }
}

/** One process: the changes go straight to its own listeners. */
export function openMemoryChangeBus(): ChangeBus {
  const listeners = new Listeners();
  return {
    publish: (changes) => {
      for (const change of changes) listeners.deliver(change);
    },
    listen: (listener) => listeners.add(listener),
    close: async () => {},
  };
}
