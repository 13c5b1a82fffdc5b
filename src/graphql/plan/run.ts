import type { Db } from '../../db/client.ts';
import { isDatabaseUnavailable } from '../../store/prisma-errors.ts';
import type { PageArguments } from './arguments.ts';
import type { Statement } from './compile.ts';

/**
 * Runs a planned statement through Prisma, on the request's client (its driver adapter and pool, or its held
 * transaction), every value bound. Undefined when it fails or answers no text (a required row missing): the
 * resolvers then answer the request, and say what is wrong. A database that cannot serve is not the plan's
 * fault: that error goes on as the resolvers' would (503 UNAVAILABLE), rather than a second try on it.
 */
export async function runStatement(
  prisma: Db,
  statement: Statement,
  pages: readonly PageArguments[],
): Promise<string | undefined> {
  const values = statement.values.map((read) => read(pages));
  try {
    const [row] = await prisma.$queryRawUnsafe<{ json: unknown }[]>(statement.text, ...values);
    return typeof row?.json === 'string' ? row.json : undefined;
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    return undefined;
  }
}
