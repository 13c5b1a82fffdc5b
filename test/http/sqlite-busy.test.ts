import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { listen } from '../../src/http/listener.ts';
import { createPipeline, type Pipeline } from '../../src/http/pipeline.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { createTestKey } from '../support/keys.ts';

// SQLite's wait for another process's write lock is bounded by DATABASE_STATEMENT_TIMEOUT_MS like a PostgreSQL
// statement: past it, the write is answered 503 UNAVAILABLE (retryable), and nothing is written.
const STATEMENT_TIMEOUT_MS = 300;

let database: TestDatabase;
let db: Database;
let pipeline: Pipeline;
let http: Awaited<ReturnType<typeof listen>>;
let apiKey: string;

beforeAll(async () => {
  database = await createTestDatabase({}, 'sqlite');
  apiKey = await createTestKey(database.db.prisma, 'business');
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
  });
  db = await openDatabase(database.url, { timeouts: config.databaseTimeouts });
  pipeline = await createPipeline({ config, db });
  http = await listen(pipeline.handle, '127.0.0.1', 0);
});
afterAll(async () => {
  await http?.close();
  await pipeline?.close();
  await db?.close();
  await database?.drop();
});

const createCategory = (name: string) =>
  fetch(`${http.url}/categories`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ name }),
  });

it('answers a write 503 UNAVAILABLE once another process has held the write lock for the statement timeout', async () => {
  if (database.target.provider !== 'sqlite') throw new Error('this test is about SQLite');
  const other = new Sqlite(database.target.file);
  const before = await db.prisma.category.count();
  try {
    other.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    const refused = await createCategory('Locked out');
    const ms = Date.now() - started;
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({
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
  expect(await db.prisma.category.count()).toBe(before);
  expect((await createCategory('After the lock')).status).toBe(201);
});
