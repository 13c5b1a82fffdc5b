import { afterEach, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';

// The gateway's SQLite settings are applied by the connection as it opens (src/db/sqlite-connection.ts), not
// issued through Prisma at start-up: a process that has not been asked anything has not loaded Prisma's query
// compiler (about 25 MB of RSS, docs/performance.md "Memory").
let test: TestDatabase | undefined;
afterEach(() => test?.drop());

const settings = async ({ db }: TestDatabase) => {
  const read = async (pragma: string) =>
    Object.values(
      (await db.prisma.$queryRawUnsafe<Record<string, unknown>[]>(`PRAGMA ${pragma}`))[0] ?? {},
    )[0];
  return {
    journalMode: await read('journal_mode'),
    synchronous: Number(await read('synchronous')),
    busyTimeout: Number(await read('busy_timeout')),
    foreignKeys: Number(await read('foreign_keys')),
  };
};
// synchronous 1 is NORMAL.
const expected = { journalMode: 'wal', synchronous: 1, busyTimeout: 1234, foreignKeys: 1 };

it('opening a SQLite database issues no statement; the first query finds the settings in place', async () => {
  const statements: string[] = [];
  test = await createTestDatabase(
    { onQuery: (sql) => statements.push(sql), timeouts: { statementMs: 1234, connectMs: 1000 } },
    'sqlite',
  );
  expect(statements).toEqual([]);
  expect(await settings(test)).toEqual(expected);
});

it('a connection opened again after $disconnect has the settings too', async () => {
  test = await createTestDatabase({ timeouts: { statementMs: 1234, connectMs: 1000 } }, 'sqlite');
  await test.db.prisma.pet.count();
  await test.db.prisma.$disconnect();
  expect(await settings(test)).toEqual(expected);
});
