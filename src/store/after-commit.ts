import type { Db } from '../db/client.ts';
import type { Change } from '../events/change.ts';

/** What a store write is handed: the client to write with, and where its changes go once committed. */
export interface Writer {
  prisma: Db;
  /**
   * The request's held transaction, when the write runs in one (db/held-transaction.ts): its changes are
   * committed, or rolled back, with that transaction, not when the write returns.
   */
  transaction?: { afterCommit(run: () => void): void };
  /** Sends committed changes to the subscribers (events/bus.ts); absent, nobody listens. */
  publish?: (changes: readonly Change[]) => void;
}

/**
 * The one way a write reports its changes, called once its own transaction has returned: published now, or,
 * inside a held transaction, when that commits (never when it rolls back). The write has committed by then, so
 * nothing here may make its request fail: the buses never throw (they log what they lose), and this makes sure.
 */
export function afterCommit(writer: Writer, changes: readonly Change[]): void {
  const { publish, transaction } = writer;
  if (!publish || changes.length === 0) return;
  const publishCommitted = () => {
    try {
      publish(changes);
    } catch {
      // Unreachable with the buses of events/: each catches and logs its own failures.
    }
  };
  if (transaction) transaction.afterCommit(publishCommitted);
  else publishCommitted();
}

/**
 * A Prisma query (as Pothos selects it) that also reads `fields`, which the write's change event needs; a
 * query without `select` reads every scalar already.
 */
export function alsoSelecting<Q extends { select?: object | null }>(
  query: Q,
  fields: Record<string, true>,
): Q {
  return query.select ? { ...query, select: { ...query.select, ...fields } } : query;
}
