import type { SqlDriverAdapterFactory, SqlQueryable } from '@prisma/driver-adapter-utils';

/**
 * Calls `onStatement` with each SQL statement as Prisma hands it to the driver adapter, before it waits for a
 * connection: tests count statements (N+1 queries) and see that one was issued while another is still held back.
 * Prisma's own query log tells of a statement only once it has run.
 */
export function observeStatements<Factory extends SqlDriverAdapterFactory>(
  factory: Factory,
  onStatement: (sql: string) => void,
): Factory {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = observe(await connect(), onStatement);
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) =>
      observe(await startTransaction(isolationLevel), onStatement);
    return adapter;
  };
  return factory;
}

function observe<Queryable extends SqlQueryable>(
  queryable: Queryable,
  onStatement: (sql: string) => void,
): Queryable {
  const queryRaw = queryable.queryRaw.bind(queryable);
  const executeRaw = queryable.executeRaw.bind(queryable);
  queryable.queryRaw = (query) => {
    onStatement(query.sql);
    return queryRaw(query);
  };
  queryable.executeRaw = (query) => {
    onStatement(query.sql);
    return executeRaw(query);
  };
  return queryable;
}
