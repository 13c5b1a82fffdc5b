import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';

// SQLite (this project runs on the default provider): one connection serves every statement of the process,
// so a statement outside a transaction must not run inside another request's open one (src/db/client.ts).
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** A transaction that writes, then waits until `release` is called, then rolls back. */
function stalledTransaction(name: string) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let written = () => {};
  const hasWritten = new Promise<void>((resolve) => {
    written = resolve;
  });
  const done = database.db.prisma
    .$transaction(async (tx) => {
      await tx.category.create({ data: { name } });
      written();
      await released;
      throw new Error('rolled back on purpose');
    })
    .catch((error: Error) => error.message);
  return { hasWritten, release, done };
}

it("keeps a write made beside another request's transaction that rolls back", async () => {
  const transaction = stalledTransaction('Rolled back');
  await transaction.hasWritten;
  // One INSERT, no transaction of its own; it is given time to run while the other transaction is open.
  // (Prisma runs a query once it is awaited or `then` is called.)
  const outside = database.db.prisma.category
    .createMany({ data: [{ name: 'Kept' }] })
    .then((result) => result);
  await sleep(100);
  transaction.release();
  expect(await transaction.done).toBe('rolled back on purpose');
  await outside;
  const names = (await database.db.prisma.category.findMany()).map(({ name }) => name);
  expect(names).toEqual(['Kept']);
});

it("never shows a read another request's uncommitted write", async () => {
  const transaction = stalledTransaction('Uncommitted');
  await transaction.hasWritten;
  const read = database.db.prisma.category.findMany({ where: { name: 'Uncommitted' } }).then((rows) => rows);
  await sleep(100);
  transaction.release();
  await transaction.done;
  expect(await read).toEqual([]);
});
