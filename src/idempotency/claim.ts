import { Response } from '@whatwg-node/fetch';
import { apiError } from '../contract/errors.ts';
import type { Database } from '../db/client.ts';
import { type HeldTransaction, holdTransaction } from '../db/held-transaction.ts';
import type { Fingerprints } from './fingerprints.ts';
import { findRecord, lockKey, type RecordId } from './records.ts';
import { replay } from './replay.ts';

// A keyed write holds its transaction (on SQLite, the database's write lock) for as long as it runs: one that
// takes longer is rolled back and answered 503. The wait to begin matches SQLite's busy timeout.
const HOLD = { timeoutMs: 10_000, maxWaitMs: 5_000 };

/** A keyed write on its way: the record it is to leave, and the transaction it runs in. */
export interface Run {
  id: RecordId;
  fingerprint: string;
  transaction: HeldTransaction;
  api: 'rest' | 'graphql';
  /** An error in its results asks the client to retry (5xx, 429): then nothing of it is kept. */
  asksForRetry: boolean;
}

export interface ClaimDeps {
  db: Pick<Database, 'prisma' | 'target'>;
  now: () => number;
}

export type Claim = (
  id: RecordId,
  api: Run['api'],
  fingerprintsOf: () => Promise<Fingerprints>,
) => Promise<Response | Run>;

/**
 * Claims a key for a request: the recorded response to replay, or the request's Run in a transaction that holds
 * the key until it ends. Refuses (throws) IDEMPOTENCY_KEY_IN_USE and IDEMPOTENCY_KEY_REUSED.
 */
export function keyClaims({ db, now }: ClaimDeps): Claim {
  // Keys whose first request runs in this process. Other processes are kept out by lockKey.
  const running = new Set<string>();

  async function begin(id: RecordId, api: Run['api'], fingerprints: Fingerprints): Promise<Response | Run> {
    // Read first outside any transaction, so that a replay never waits for (on SQLite) the write lock.
    const earlier = await findRecord(db.prisma, id, new Date(now()));
    if (earlier) return replay(earlier, fingerprints);
    const transaction = await holdTransaction(db.prisma, HOLD);
    try {
      if (!(await lockKey(transaction.prisma, db.target.provider, id))) throw inUse();
      // Completed by another process since the read above.
      const completed = await findRecord(transaction.prisma, id, new Date(now()));
      if (completed) {
        await transaction.rollback();
        return replay(completed, fingerprints);
      }
      return { id, fingerprint: fingerprints.meaning, transaction, api, asksForRetry: false };
    } catch (error) {
      await transaction.rollback();
      throw error;
    }
  }

  return async (id, api, fingerprintsOf) => {
    const name = `${id.apiKeyId} ${id.key}`;
    if (running.has(name)) throw inUse();
    running.add(name);
    try {
      const begun = await begin(id, api, await fingerprintsOf());
      if (begun instanceof Response) running.delete(name);
      else begun.transaction.ended.then(() => running.delete(name));
      return begun;
    } catch (error) {
      running.delete(name);
      throw error;
    }
  };
}

const inUse = () => apiError('idempotencyKeyInUse');
