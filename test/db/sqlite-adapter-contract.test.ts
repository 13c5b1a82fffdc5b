import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import Sqlite from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PrismaClient as SqliteClient } from '../../src/generated/sqlite/client.ts';

// What src/db/sqlite-adapter-patch.ts relies on in Prisma's better-sqlite3 adapter, checked on the adapter as
// installed, without the patch. A new adapter version that fails here needs the patch re-checked, not this test
// loosened: docs/database.md says why each fact matters.
const root = path.resolve(import.meta.dirname, '../..');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));
const installed: string = readJson('node_modules/@prisma/adapter-better-sqlite3/package.json').version;
const changed = (what: string) =>
  `@prisma/adapter-better-sqlite3 ${installed} ${what}. src/db/sqlite-adapter-patch.ts relies on it: re-read the ` +
  'adapter\'s dist/index.mjs, re-check the patch against docs/database.md ("The adapter patch"), then this test.';

type Adapter = Awaited<ReturnType<PrismaBetterSqlite3['connect']>>;
const statement = (sql: string) => ({ sql, args: [], argTypes: [] });

let dir: string;
let file: string;
let adapter: Adapter;
/** Another connection to the file, as another gateway process has, waiting for no lock. */
let other: Sqlite.Database;
const otherCanWrite = () => {
  try {
    other.prepare('INSERT INTO t (n) VALUES (0)').run();
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return false;
    throw error;
  }
};
const rowCount = async () =>
  Number((await adapter.queryRaw(statement('SELECT count(*) FROM t'))).rows[0]?.[0]);

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'petstore-adapter-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(async (context) => {
  file = path.join(dir, `${context.task.id}.db`);
  const setup = new Sqlite(file);
  setup.pragma('journal_mode = WAL');
  setup.exec('CREATE TABLE t (n INTEGER)');
  setup.close();
  adapter = await new PrismaBetterSqlite3({ url: `file:${file}` }).connect();
  other = new Sqlite(file, { timeout: 0 });
});
afterEach(async () => {
  other.close();
  await adapter.dispose();
});

it('is pinned to one exact version in package.json', () => {
  const pinned = readJson('package.json').dependencies['@prisma/adapter-better-sqlite3'];
  expect(pinned, 'pin the adapter to the exact version this test last passed on (no ^ or ~)').toBe(installed);
});

describe('the adapter, as the patch finds it', () => {
  it('lets its connect, queryRaw, executeRaw and startTransaction be replaced on the objects', () => {
    const factory = new PrismaBetterSqlite3({ url: `file:${file}` });
    const replaced = () => Promise.reject(new Error('replaced'));
    const replaceable = (object: object, method: string) => {
      try {
        Object.assign(object, { [method]: replaced });
        return (object as Record<string, unknown>)[method] === replaced;
      } catch {
        return false;
      }
    };
    for (const [object, method] of [
      [factory, 'connect'],
      [adapter, 'queryRaw'],
      [adapter, 'executeRaw'],
      [adapter, 'startTransaction'],
    ] as const) {
      expect(replaceable(object, method), changed(`no longer lets ${method} be replaced on its object`)).toBe(
        true,
      );
    }
  });

  it("runs a statement from outside a transaction on the open transaction's connection, inside it", async () => {
    const transaction = await adapter.startTransaction();
    await adapter.executeRaw(statement('INSERT INTO t (n) VALUES (1)'));
    await transaction.executeRaw(statement('ROLLBACK'));
    await transaction.rollback();
    expect(
      await rowCount(),
      changed(
        'no longer runs other statements inside an open transaction (the wait for it may have become unnecessary)',
      ),
    ).toBe(0);
  });

  it('begins a DEFERRED transaction in startTransaction, which an immediate one may replace', async () => {
    const transaction = await adapter.startTransaction();
    expect(otherCanWrite(), changed('no longer begins its transactions DEFERRED')).toBe(true);
    await expect(
      transaction.executeRaw(statement('ROLLBACK')),
      changed('no longer has a transaction begun when startTransaction resolves'),
    ).resolves.toBe(0);
    await transaction.executeRaw(statement('BEGIN IMMEDIATE'));
    expect(
      otherCanWrite(),
      changed('no longer lets BEGIN IMMEDIATE take the write lock on its connection'),
    ).toBe(false);
    await transaction.executeRaw(statement('COMMIT'));
    await transaction.commit();
  });

  it("runs a transaction's statements without its own queryRaw and executeRaw, which the patch holds back", async () => {
    const outside: string[] = [];
    const { queryRaw, executeRaw } = adapter;
    adapter.queryRaw = (query) => {
      outside.push(query.sql);
      return queryRaw.call(adapter, query);
    };
    adapter.executeRaw = (query) => {
      outside.push(query.sql);
      return executeRaw.call(adapter, query);
    };
    const transaction = await adapter.startTransaction();
    await transaction.executeRaw(statement('INSERT INTO t (n) VALUES (1)'));
    await transaction.queryRaw(statement('SELECT n FROM t'));
    await transaction.executeRaw(statement('COMMIT'));
    await transaction.commit();
    expect(outside, changed("now runs a transaction's statements through the adapter's own methods")).toEqual(
      [],
    );
  });

  it('leaves COMMIT and ROLLBACK to Prisma, which sends them before it calls commit() or rollback()', async () => {
    const transaction = await adapter.startTransaction();
    expect(
      transaction.options.usePhantomQuery,
      changed(
        'now leaves COMMIT and ROLLBACK to commit() and rollback(): check that they end the transaction on the ' +
          'connection before their promises settle',
      ),
    ).toBe(false);
    await transaction.executeRaw(statement('ROLLBACK'));
    await transaction.rollback();
  });
});

it("is called by Prisma's client through the adapter object that connect() returned, after it resolved", async () => {
  const factory = new PrismaBetterSqlite3({ url: `file:${file}` });
  const calls: string[] = [];
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const connected = await connect();
    const { queryRaw, startTransaction } = connected;
    connected.queryRaw = (query) => {
      calls.push('queryRaw');
      return queryRaw.call(connected, query);
    };
    connected.startTransaction = (isolationLevel) => {
      calls.push('startTransaction');
      return startTransaction.call(connected, isolationLevel);
    };
    return connected;
  };
  const prisma = new SqliteClient({ adapter: factory });
  try {
    await prisma.$queryRawUnsafe('SELECT 1');
    await prisma.$transaction(async (tx) => tx.$queryRawUnsafe('SELECT 2'));
  } finally {
    await prisma.$disconnect();
  }
  expect(
    calls,
    "@prisma/client no longer calls the adapter's methods as replaced after connect(): re-check src/db/sqlite-adapter-patch.ts",
  ).toEqual(expect.arrayContaining(['queryRaw', 'startTransaction']));
});
