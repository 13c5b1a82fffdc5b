/**
 * Reads by a unique column that requests arriving together make, started together in the event loop's check
 * phase: by then the sockets read in this turn have all been parsed, so concurrent requests share one statement
 * and round trip instead of each reaching its resolver in a tick of its own (docs/performance.md, levers 7, 20).
 */

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
  return new Promise<Row | null>((resolve, reject) => {
    const batch = batchFor(reader as ManyReader<unknown>, column, query);
    batch.lookups.push({ value, resolve: resolve as (row: unknown) => void, reject });
    startSoon();
  });
}

interface Lookup {
  value: unknown;
  resolve: (row: unknown) => void;
  reject: (reason: unknown) => void;
}

interface Batch {
  reader: ManyReader<unknown>;
  column: string;
  query: object;
  lookups: Lookup[];
}

// By model (the client's own delegate: a transaction's reads stay in its transaction), then by column and query.
let batches = new Map<ManyReader<unknown>, Map<string, Batch>>();
let scheduled = false;

function batchFor(reader: ManyReader<unknown>, column: string, query: object): Batch {
  let byShape = batches.get(reader);
  if (!byShape) {
    byShape = new Map();
    batches.set(reader, byShape);
  }
  const shape = `${column} ${shapeOf(query)}`;
  let batch = byShape.get(shape);
  if (!batch) {
    batch = { reader, column, query, lookups: [] };
    byShape.set(shape, batch);
  }
  return batch;
}

/** The query as text; BigInt arguments (Int64) as their digits. */
function shapeOf(query: object): string {
  try {
    return JSON.stringify(query);
  } catch {
    return JSON.stringify(query, (_key, value) => (typeof value === 'bigint' ? `${value}n` : value));
  }
}

function startSoon() {
  if (scheduled) return;
  scheduled = true;
  setImmediate(startAll);
}

function startAll() {
  scheduled = false;
  const started = batches;
  batches = new Map();
  for (const byShape of started.values()) for (const batch of byShape.values()) startBatch(batch);
}

function startBatch({ reader, column, query, lookups }: Batch) {
  const { select, where } = query as { select?: Record<string, unknown>; where?: object };
  const oneOf = { [column]: { in: [...new Set(lookups.map(({ value }) => value))] } };
  const addColumn = select !== undefined && !select[column];
  const args = {
    ...query,
    ...(addColumn && { select: { ...select, [column]: true } }),
    where: where ? { AND: [where, oneOf] } : oneOf,
  };
  const answer = (rows: unknown[]) => {
    // By the value's digits: an Int64 may come as a BigInt or a number, and the row holds a BigInt.
    const byValue = new Map<string, unknown>();
    for (const row of rows) byValue.set(String((row as Record<string, unknown>)[column]), row);
    for (const { value, resolve } of lookups) resolve(withoutColumn(byValue.get(String(value)) ?? null));
  };
  // Each caller gets the row findUnique would have given it: its own object, without a column it did not select.
  const withoutColumn = (row: unknown) => {
    if (row === null) return null;
    const copy = { ...(row as Record<string, unknown>) };
    if (addColumn) delete copy[column];
    return copy;
  };
  const fail = (error: unknown) => {
    for (const { reject } of lookups) reject(error);
  };
  try {
    reader.findMany(args as never).then(answer, fail);
  } catch (error) {
    fail(error);
  }
}
