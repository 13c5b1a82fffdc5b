import { Prisma } from '../generated/sqlite/client.ts';

const hasCode = (error: unknown, code: string) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === code;

/** A foreign key stopped the write: the row is still referenced, or references nothing. */
export const isForeignKeyViolation = (error: unknown) => hasCode(error, 'P2003');

/** An update or delete by unique key found no row. */
export const isMissingRecord = (error: unknown) => hasCode(error, 'P2025');

/** Runs a write by unique key, turning "no such row" into the error the caller names. */
export async function orMissing<T>(write: Promise<T>, missing: () => Error): Promise<T> {
  try {
    return await write;
  } catch (error) {
    throw isMissingRecord(error) ? missing() : error;
  }
}
