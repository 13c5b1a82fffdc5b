import type { Db } from '../../db/client.ts';
import type { PageArguments } from './arguments.ts';
import type { Statement } from './compile.ts';

/**
 * Runs a planned statement through Prisma, on the request's client (its driver adapter and pool, or its held
 * transaction), every value bound. Undefined when it fails or answers no text (a required row missing): the
 * resolvers then answer the request, and say what is wrong.
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
  } catch {
    return undefined;
  }
}
