import type { Charge, CounterStore, Refund, Take, WindowCount, WindowKind } from './counter.ts';

export interface MemoryCounterOptions {
  /** The clock, in epoch milliseconds (tests move it instead of waiting). */
  now?: () => number;
}

interface Window {
  count: number;
  endsAt: number;
}

const NO_WINDOW: WindowCount = Object.freeze({ count: 0, msLeft: 0, id: 0 });

/**
 * Counters in this process. They answer synchronously: on the path every API request takes, a promise per
 * call costs more than the counting itself.
 */
export class MemoryCounterStore implements CounterStore {
  readonly #tables = new Map<string, WindowTable>();
  /** Lease expiry times, by lease id, by key. */
  readonly #leases = new Map<string, Map<string, number>>();
  readonly #now: () => number;

  constructor({ now = Date.now }: MemoryCounterOptions = {}) {
    this.#now = now;
  }

  take(key: string, charges: readonly Charge[]): Take {
    const now = this.#now();
    let taken = true;
    for (const { window, points, limit } of charges) {
      const open = this.#table(window).current(key, now);
      if ((open?.count ?? 0) + points > limit) taken = false;
    }
    const windows = charges.map(({ window, points }): WindowCount => {
      const table = this.#table(window);
      let open = table.current(key, now);
      if (taken && points > 0) {
        open ??= table.open(key, now, window.seconds * 1000);
        open.count += points;
      }
      return open ? { count: open.count, msLeft: open.endsAt - now, id: open.endsAt } : NO_WINDOW;
    });
    return { taken, windows };
  }

  giveBack(key: string, refunds: readonly Refund[]): boolean[] {
    const now = this.#now();
    return refunds.map(({ window, id, points }) => {
      const open = this.#table(window).current(key, now);
      if (open?.endsAt !== id) return false;
      open.count = Math.max(0, open.count - points);
      return true;
    });
  }

  holdLease(key: string, id: string, limit: number, ttlMs: number): boolean {
    const now = this.#now();
    let leases = this.#leases.get(key);
    if (!leases) {
      leases = new Map();
      this.#leases.set(key, leases);
    }
    for (const [held, expiresAt] of leases) if (expiresAt <= now) leases.delete(held);
    if (!leases.has(id) && leases.size >= limit) return false;
    leases.set(id, now + ttlMs);
    return true;
  }

  countLeases(key: string): number {
    const leases = this.#leases.get(key);
    if (!leases) return 0;
    const now = this.#now();
    let held = 0;
    for (const expiresAt of leases.values()) if (expiresAt > now) held++;
    return held;
  }

  dropLease(key: string, id: string): void {
    const leases = this.#leases.get(key);
    leases?.delete(id);
    if (leases?.size === 0) this.#leases.delete(key);
  }

  /** Keys held for a window kind: those counted in its current window, and ended ones not yet swept. */
  keysHeld(window: WindowKind): number {
    return this.#tables.get(window.name)?.size ?? 0;
  }

  status() {
    return { store: 'memory' } as const;
  }

  async close() {}

  #table(window: WindowKind): WindowTable {
    let table = this.#tables.get(window.name);
    if (!table) {
      table = new WindowTable();
      this.#tables.set(window.name, table);
    }
    return table;
  }
}

/**
 * The windows of one kind, by key. Its window id is the end time, which a later window of the same key
 * cannot share. Ended windows are swept once per window length, so that memory follows the keys seen in one
 * window, not the number of requests.
 */
class WindowTable {
  readonly #windows = new Map<string, Window>();
  #nextSweepAt = 0;

  get size(): number {
    return this.#windows.size;
  }

  current(key: string, now: number): Window | undefined {
    const window = this.#windows.get(key);
    return window && window.endsAt > now ? window : undefined;
  }

  open(key: string, now: number, windowMs: number): Window {
    if (now >= this.#nextSweepAt) this.#sweep(now, windowMs);
    const window = { count: 0, endsAt: now + windowMs };
    this.#windows.set(key, window);
    return window;
  }

  #sweep(now: number, windowMs: number): void {
    for (const [key, window] of this.#windows) if (window.endsAt <= now) this.#windows.delete(key);
    this.#nextSweepAt = now + windowMs;
  }
}

export function openMemoryCounterStore(options: MemoryCounterOptions = {}): MemoryCounterStore {
  return new MemoryCounterStore(options);
}
