import type { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';

type SqliteAdapter = Awaited<ReturnType<PrismaBetterSqlite3['connect']>>;
type SqliteTransaction = Awaited<ReturnType<SqliteAdapter['startTransaction']>>;
type Query = Parameters<SqliteAdapter['queryRaw']>[0];

/**
 * Makes Prisma's better-sqlite3 adapter run each transaction alone on its one connection, begun with
 * BEGIN IMMEDIATE: the adapter lets other statements run inside an open transaction, and begins transactions
 * DEFERRED, which fails with SQLITE_BUSY when several processes write. The adapter has an option for neither;
 * docs/database.md tells the story, and test/db/sqlite-adapter-contract.test.ts checks what this relies on.
 */
export function withSerializedTransactions(factory: PrismaBetterSqlite3): PrismaBetterSqlite3 {
  const connect = factory.connect.bind(factory);
  factory.connect = async (): Promise<SqliteAdapter> => {
    const adapter = await connect();
    /** Settles when the transaction that is open (or beginning) ends. */
    let open: Promise<void> | undefined;

    const outsideTransactions = <Result>(run: (query: Query) => Promise<Result>) => {
      const whenNoneOpen = async (query: Query): Promise<Result> => {
        while (open) await open;
        return run(query);
      };
      return (query: Query) => (open ? whenNoneOpen(query) : run(query));
    };
    adapter.queryRaw = outsideTransactions(adapter.queryRaw.bind(adapter));
    adapter.executeRaw = outsideTransactions(adapter.executeRaw.bind(adapter));

    const startDeferred = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => {
      while (open) await open;
      let end = () => {};
      open = new Promise((resolve) => {
        end = () => {
          open = undefined;
          resolve();
        };
      });
      let transaction: SqliteTransaction;
      try {
        transaction = await startDeferred(isolationLevel);
      } catch (error) {
        end();
        throw error;
      }
      const commit = transaction.commit.bind(transaction);
      const rollback = transaction.rollback.bind(transaction);
      transaction.commit = () => commit().finally(end);
      transaction.rollback = () => rollback().finally(end);
      // The adapter's BEGIN has run no statement yet: ending it and beginning again lets nothing in between.
      try {
        await transaction.executeRaw({ sql: 'ROLLBACK', args: [], argTypes: [] });
        await transaction.executeRaw({ sql: 'BEGIN IMMEDIATE', args: [], argTypes: [] });
      } catch (error) {
        await transaction.rollback();
        throw error;
      }
      return transaction;
    };
    return adapter;
  };
  return factory;
}
