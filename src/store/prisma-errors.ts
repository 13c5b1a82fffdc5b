import { Prisma } from '../generated/sqlite/client.ts';

const hasCode = (error: unknown, code: string) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === code;

/** A foreign key stopped the write: the row is still referenced, or references nothing. */
export const isForeignKeyViolation = (error: unknown) => hasCode(error, 'P2003');

/** An update or delete by unique key found no row. */
const isMissingRecord = (error: unknown) => hasCode(error, 'P2025');

// Can't reach the server, timed out, connection closed, no pooled connection in time, transaction expired,
// too many connections.
const UNAVAILABLE_CODES = ['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028', 'P2037'];
// PostgreSQL's own: the statement ran past DATABASE_STATEMENT_TIMEOUT_MS, or the server is shutting down,
// starting, or out of connections.
const UNAVAILABLE_SQLSTATES = ['57014', '57P01', '57P02', '57P03', '53300'];
// The pg driver's errors that Prisma passes on as they are, with no code: a connection lost, or given up on
// past a timeout (db/client.ts) because the server did not answer.
const DRIVER_UNAVAILABLE_MESSAGE =
  /^(Connection terminated|Query read timeout|timeout exceeded when trying to connect)/;

const sqlState = (error: InstanceType<typeof Prisma.PrismaClientKnownRequestError>) =>
  (error.meta?.driverAdapterError as { cause?: { originalCode?: unknown } } | undefined)?.cause?.originalCode;

/** The database cannot serve right now: the request may succeed if retried, so it is not an internal fault. */
export const isDatabaseUnavailable = (error: unknown) =>
  error instanceof Prisma.PrismaClientInitializationError ||
  UNAVAILABLE_CODES.some((code) => hasCode(error, code)) ||
  (error instanceof Prisma.PrismaClientKnownRequestError &&
    UNAVAILABLE_SQLSTATES.includes(String(sqlState(error)))) ||
  (error instanceof Error && error.constructor === Error && DRIVER_UNAVAILABLE_MESSAGE.test(error.message));

/** Runs a write by unique key, turning "no such row" into the error the caller names. */
export async function orMissing<T>(write: Promise<T>, missing: () => Error): Promise<T> {
  try {
    return await write;
  } catch (error) {
    throw isMissingRecord(error) ? missing() : error;
  }
}
