import { Prisma } from '../generated/sqlite/client.ts';

const hasCode = (error: unknown, code: string) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === code;

/** A foreign key stopped the write: the row is still referenced, or references nothing. */
export const isForeignKeyViolation = (error: unknown) => hasCode(error, 'P2003');

/** An update or delete by unique key found no row. */
const isMissingRecord = (error: unknown) => hasCode(error, 'P2025');

// Can't reach the server, timed out, connection closed, no pooled connection in time, transaction expired.
const UNAVAILABLE_CODES = ['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028'];

/** The database cannot serve right now: the request may succeed if retried, so it is not an internal fault. */
export const isDatabaseUnavailable = (error: unknown) =>
  error instanceof Prisma.PrismaClientInitializationError ||
  UNAVAILABLE_CODES.some((code) => hasCode(error, code));

/** Runs a write by unique key, turning "no such row" into the error the caller names. */
export async function orMissing<T>(write: Promise<T>, missing: () => Error): Promise<T> {
  try {
    return await write;
  } catch (error) {
    throw isMissingRecord(error) ? missing() : error;
  }
}
