import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdTransaction } from '../../src/db/held-transaction.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';

// What runs after a held transaction commits (publishing its changes) cannot turn the commit into a failure: the
// idempotency layer would answer "nothing of it was kept" for a write that was kept.

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describe('a held transaction', () => {
  it('reports its commit as a commit when what runs after it throws, and runs the rest', async () => {
    const held = await holdTransaction(database.db.prisma, { timeoutMs: 5_000, maxWaitMs: 5_000 });
    await held.savepoint((prisma) => prisma.category.create({ data: { name: 'Kept after a throw' } }));
    const ran: string[] = [];
    held.afterCommit(() => {
      throw new Error('a subscriber failed');
    });
    held.afterCommit(() => ran.push('second'));
    await expect(held.commit(async () => {})).resolves.toBeUndefined();
    expect(ran).toEqual(['second']);
    expect(await database.db.prisma.category.count({ where: { name: 'Kept after a throw' } })).toBe(1);
  });
});
