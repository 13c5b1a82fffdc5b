/**
 * Reads by a unique column that requests arriving together make, started together in the event loop's check
 * phase: by then the sockets read in this turn have all been parsed, so concurrent requests share one statement
 * and round trip instead of each reaching its resolver in a tick of its own (docs/performance.md, levers 7, 20).
 *
 * DataLoader batches; its loaders live for one loop turn, not per request: what is saved is shared across
 * requests (a request by id makes one read), and a loader kept longer would keep every selection ever asked.
 */
import DataLoader from 'dataloader';

/** What `findUniqueTogether` needs of a Prisma model: `findMany`, as `prisma.pet` has it. */
export interface ManyReader<Row> {
  findMany(args: never): PromiseLike<Row[]>;
}

/**
 * A row by a unique column, or null: `reader.findUnique({ ...query, where: { [column]: value } })`, read in one
 * `findMany` with the other lookups of this loop turn on the same model, column and selection (a Pothos
 * `query`). Prisma batches `findUnique` calls made in one tick itself, but pays its whole request path for each
 * call; here it is paid once per batch. The column is added to a `select` so that rows can be told apart.
 * A `where` in the query narrows the rows the value may name (the caller's own orders): null for the others.
 */
export function findUniqueTogether<Row>(
  reader: ManyReader<Row>,
  column: string,
  value: unknown,
  query: object = {},
): Promise<Row | null> {
  return loaderFor(reader as ManyReader<unknown>, column, query).load(value) as Promise<Row | null>;
}

type Loader = DataLoader<unknown, unknown>;

// This turn's loaders by model (the client's own delegate: a transaction's reads stay in its transaction), then
// by column and query. A loader leaves when its batch starts: a read in a later turn gets the row as it is then.
const loaders = new Map<ManyReader<unknown>, Map<string, Loader>>();

function loaderFor(reader: ManyReader<unknown>, column: string, query: object): Loader {
  let byShape = loaders.get(reader);
  if (!byShape) {
    byShape = new Map();
    loaders.set(reader, byShape);
  }
  const shape = `${column} ${shapeOf(query)}`;
  let loader = byShape.get(shape);
  if (!loader) {
    const forget = () => {
      byShape.delete(shape);
      if (byShape.size === 0) loaders.delete(reader);
    };
    loader = new DataLoader((values) => readRows(reader, column, query, values), {
      cache: false,
      batchScheduleFn: (start) =>
        setImmediate(() => {
          forget();
          start();
        }),
    });
    byShape.set(shape, loader);
  }
  return loader;
}

/** The query as text; BigInt arguments (Int64) as their digits. */
function shapeOf(query: object): string {
  try {
    return JSON.stringify(query);
  } catch {
    return JSON.stringify(query, (_key, value) => (typeof value === 'bigint' ? `${value}n` : value));
  }
}

/** One `findMany` for a batch; each value's row, or null, in the order asked. */
async function readRows(
  reader: ManyReader<unknown>,
  column: string,
  query: object,
  values: readonly unknown[],
): Promise<unknown[]> {
  const { select, where } = query as { select?: Record<string, unknown>; where?: object };
  const oneOf = { [column]: { in: [...new Set(values)] } };
  const addColumn = select !== undefined && !select[column];
  const rows = await reader.findMany({
    ...query,
    ...(addColumn && { select: { ...select, [column]: true } }),
    where: where ? { AND: [where, oneOf] } : oneOf,
  } as never);
  // By the value's digits: an Int64 may come as a BigInt or a number, and the row holds a BigInt.
  const byValue = new Map<string, Record<string, unknown>>();
  for (const row of rows as Record<string, unknown>[]) byValue.set(String(row[column]), row);
  // Each caller gets the row findUnique would have given it: its own object, without a column it did not select.
  return values.map((value) => {
    const row = byValue.get(String(value));
    if (!row) return null;
    const copy = { ...row };
    if (addColumn) delete copy[column];
    return copy;
  });
}
