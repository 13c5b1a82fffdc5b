import { type Change, rowOf } from './change.ts';

interface Row {
  /** The version last passed on (or known when watching began). */
  last: number;
  /** Changes that came ahead of a missing version, by version. */
  early: Map<number, Change>;
  timer?: NodeJS.Timeout;
}

/**
 * Passes each row's changes on in version order, each once. Every committed change raises its row's version by
 * exactly one, so a gap means a change published by another process is still on its way: the later ones wait
 * for it up to `gapWaitMs` (a process that died between commit and publish never sends it), then go on without
 * it. Versions at or below the last one passed on are stale or repeated, and dropped.
 */
export class InOrder {
  readonly #rows = new Map<string, Row>();

  constructor(
    /** Each watched row's version when watching began; a row not in it is new (its first version is 0). */
    baseline: ReadonlyMap<string, number>,
    private readonly pass: (change: Change) => void,
    private readonly gapWaitMs: number,
  ) {
    for (const [row, version] of baseline) this.#rows.set(row, { last: version, early: new Map() });
  }

  accept(change: Change): void {
    const key = rowOf(change);
    let row = this.#rows.get(key);
    if (!row) {
      row = { last: -1, early: new Map() };
      this.#rows.set(key, row);
    }
    if (change.version <= row.last || row.early.has(change.version)) return;
    row.early.set(change.version, change);
    this.#passInOrder(row);
    if (row.early.size > 0 && !row.timer) {
      row.timer = setTimeout(() => this.#skipGap(row), this.gapWaitMs);
    }
  }

  /** Stops the timers of changes still waiting; they are not passed on. */
  close(): void {
    for (const row of this.#rows.values()) clearTimeout(row.timer);
  }

  #passInOrder(row: Row): void {
    for (let next = row.early.get(row.last + 1); next; next = row.early.get(row.last + 1)) {
      row.early.delete(next.version);
      row.last = next.version;
      this.pass(next);
    }
    if (row.early.size === 0) {
      clearTimeout(row.timer);
      row.timer = undefined;
    }
  }

  /** The missing version did not come in time: go on from the earliest change that did. */
  #skipGap(row: Row): void {
    row.timer = undefined;
    if (row.early.size === 0) return;
    row.last = Math.min(...row.early.keys()) - 1;
    this.#passInOrder(row);
    if (row.early.size > 0) row.timer = setTimeout(() => this.#skipGap(row), this.gapWaitMs);
  }
}
