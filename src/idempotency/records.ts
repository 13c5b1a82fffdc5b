import { createHash } from 'node:crypto';
import type { DatabaseTarget } from '../config/database-url.ts';
import type { Db } from '../db/client.ts';

/** Whose key: the API key that sent it, and the key itself. */
export interface RecordId {
  apiKeyId: bigint;
  key: string;
}

/** A response as it is replayed. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

export interface IdempotencyRecord extends StoredResponse {
  fingerprint: string;
  /** sha256 (hex) of the answer's body when it was not kept (`body` is then null). */
  bodyDigest: string | null;
}

/** The record of the key's first response, unless there is none or it has expired. */
export async function findRecord(prisma: Db, id: RecordId, now: Date): Promise<IdempotencyRecord | null> {
  const row = await prisma.idempotencyRecord.findUnique({ where: { apiKeyId_key: id } });
  if (!row || row.expiresAt <= now) return null;
  return {
    fingerprint: row.fingerprint,
    status: row.status,
    headers: JSON.parse(row.headers) as Record<string, string>,
    body: row.body,
    bodyDigest: row.bodyDigest,
  };
}

/** Records the key's first response (in place of an expired record of the same key). */
export async function saveRecord(
  prisma: Db,
  id: RecordId,
  record: IdempotencyRecord,
  times: { createdAt: Date; expiresAt: Date },
): Promise<void> {
  const bodyBytes = record.body === null ? 0 : Buffer.byteLength(record.body);
  const row = { ...record, headers: JSON.stringify(record.headers), bodyBytes, ...times };
  await prisma.idempotencyRecord.upsert({
    where: { apiKeyId_key: id },
    create: { ...id, ...row },
    update: row,
  });
}

/** Bytes of answers kept in the unexpired records of `apiKeyId` at `now`. */
export async function keptBodyBytes(prisma: Db, apiKeyId: bigint, now: Date): Promise<number> {
  const { _sum } = await prisma.idempotencyRecord.aggregate({
    where: { apiKeyId, expiresAt: { gt: now } },
    _sum: { bodyBytes: true },
  });
  return _sum.bodyBytes ?? 0;
}

/** Deletes the records expired at `now`; returns how many. */
export async function sweepExpiredRecords(prisma: Db, now: Date): Promise<number> {
  const { count } = await prisma.idempotencyRecord.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}

/**
 * Takes the key for the rest of the transaction, or answers false when a transaction of another process holds
 * it. PostgreSQL: an advisory lock, which the server releases when the transaction ends, the holder's crash
 * included. SQLite: the transaction began with the database's write lock, which already keeps out every
 * other process's transaction.
 */
export async function lockKey(
  prisma: Db,
  provider: DatabaseTarget['provider'],
  id: RecordId,
): Promise<boolean> {
  if (provider === 'sqlite') return true;
  const [row] = await prisma.$queryRaw<[{ locked: boolean }]>`
    SELECT pg_try_advisory_xact_lock(${advisoryLockId(id)}::bigint) AS locked`;
  return row?.locked === true;
}

/** 64 bits of the key's sha256: two keys share a lock only by a collision of those. */
function advisoryLockId({ apiKeyId, key }: RecordId): bigint {
  const digest = createHash('sha256').update(`idempotency ${apiKeyId} ${key}`).digest();
  return digest.readBigInt64BE(0);
}
