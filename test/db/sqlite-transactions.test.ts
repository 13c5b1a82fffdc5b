import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';

// SQLite (this project runs on the default provider): one connection serves every statement of the process, so
// a statement outside a transaction must wait for another request's open one to end
// (src/db/sqlite-adapter-patch.ts). Each test holds a transaction open until the racing statement has been
// handed to the driver, so that the statement is issued inside the transaction's window, not merely near it.
let database: TestDatabase;
const issuedWatchers = new Set<(sql: string) => void>();
beforeAll(async () => {
  database = await createTestDatabase({
    onQuery: (sql) => {
      for (const watch of issuedWatchers) watch(sql);
    },
  });
});
afterAll(() => database.drop());

/** Settles when a statement that matches is handed to the database driver (it may then still wait). */
function issued(matches: RegExp): Promise<void> {
  return new Promise((resolve) => {
    const watch = (sql: string) => {
      if (!matches.test(sql)) return;
      issuedWatchers.delete(watch);
      resolve();
    };
    issuedWatchers.add(watch);
  });
}

/** A transaction that writes, then stays open until `whileOpen` settles, then rolls back. */
function stalledTransaction(name: string, whileOpen: () => Promise<void>): Promise<string> {
  return database.db.prisma
    .$transaction(async (tx) => {
      await tx.category.create({ data: { name } });
      await whileOpen();
      throw new Error('rolled back on purpose');
    })
    .catch((error: Error) => error.message);
}

it("keeps a write made beside another request's transaction that rolls back", async () => {
  let outside: Promise<unknown> = Promise.resolve();
  const transaction = stalledTransaction('Rolled back', async () => {
    const insertIssued = issued(/^INSERT INTO .*Category/);
    // One INSERT with no transaction of its own (Prisma sends a query once it is awaited or `then` is called).
    outside = database.db.prisma.category.createMany({ data: [{ name: 'Kept' }] }).then((result) => result);
    await insertIssued;
  });
  expect(await transaction).toBe('rolled back on purpose');
  expect(await outside).toEqual({ count: 1 });
  const names = (await database.db.prisma.category.findMany()).map(({ name }) => name);
  expect(names).toEqual(['Kept']);
});

it("never shows a read another request's uncommitted write", async () => {
  let read: Promise<unknown> = Promise.resolve();
  const transaction = stalledTransaction('Uncommitted', async () => {
    const selectIssued = issued(/^SELECT .*Category/);
    read = database.db.prisma.category.findMany({ where: { name: 'Uncommitted' } }).then((rows) => rows);
    await selectIssued;
  });
  expect(await transaction).toBe('rolled back on purpose');
  expect(await read).toEqual([]);
});

it('holds the write lock from the start of a transaction, before it has written anything', async () => {
  // Another connection to the file, as another gateway process has, waiting for no lock.
  if (database.target.provider !== 'sqlite') throw new Error('this test is about SQLite');
  const other = new Sqlite(database.target.file, { timeout: 0 });
  try {
    let otherWrite = '';
    await database.db.prisma.$transaction(async (tx) => {
      await tx.category.findMany();
      try {
        other.prepare("INSERT INTO Category (name) VALUES ('Elsewhere')").run();
        otherWrite = 'written';
      } catch (error) {
        otherWrite = (error as { code: string }).code;
      }
    });
    expect(otherWrite).toBe('SQLITE_BUSY');
  } finally {
    other.close();
  }
});
