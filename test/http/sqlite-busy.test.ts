import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { startPipelineOn } from '../support/pipeline-on.ts';

// SQLite's wait for another process's write lock is bounded by DATABASE_STATEMENT_TIMEOUT_MS like a PostgreSQL
// statement: past it, the write is answered 503 UNAVAILABLE (retryable), and nothing is written.
const STATEMENT_TIMEOUT_MS = 300;

let database: TestDatabase;
let gateway: Awaited<ReturnType<typeof startPipelineOn>>;

beforeAll(async () => {
  database = await createTestDatabase({}, 'sqlite');
  gateway = await startPipelineOn(database, { DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS) });
});
afterAll(async () => {
  await gateway?.close();
  await database?.drop();
});

const createCategory = (name: string) => gateway.post('/categories', { name });

it('answers a write 503 UNAVAILABLE once another process has held the write lock for the statement timeout', async () => {
  if (database.target.provider !== 'sqlite') throw new Error('this test is about SQLite');
  const other = new Sqlite(database.target.file);
  const before = await gateway.db.prisma.category.count();
  try {
    other.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    const refused = await createCategory('Locked out');
    const ms = Date.now() - started;
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toEqual({
      code: 'UNAVAILABLE',
      message: 'The database is unavailable right now; retry shortly',
      status: 503,
    });
    // The 5 s it waited before DATABASE_STATEMENT_TIMEOUT_MS, with a wide margin for a loaded machine.
    expect(ms).toBeLessThan(3000);
  } finally {
    other.exec('ROLLBACK');
    other.close();
  }
  expect(await gateway.db.prisma.category.count()).toBe(before);
  expect((await createCategory('After the lock')).status).toBe(201);
});
