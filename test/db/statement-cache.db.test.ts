import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';

// Prepared statements are kept across requests (src/db/statement-cache.ts): SQLite's by text in the process,
// PostgreSQL's by name on each connection. Each read must still answer its own arguments and the latest rows.
let test: TestDatabase;
let db: Database;
const prepared: string[] = [];
const postgres = process.env.TEST_DB === 'postgresql';

beforeAll(async () => {
  const prepare = Sqlite.prototype.prepare;
  // Installed before the connection opens, which takes the method it will call.
  vi.spyOn(Sqlite.prototype, 'prepare').mockImplementation(function (this: Sqlite.Database, sql: string) {
    prepared.push(sql);
    return prepare.call(this, sql);
  } as typeof prepare);
  test = await createTestDatabase();
  // One connection, so that PostgreSQL's view of prepared statements is the one every query used.
  db = postgres ? await openDatabase(`${test.url}&connection_limit=1`) : test.db;
  const category = await db.prisma.category.create({ data: { name: 'Dogs' } });
  await db.prisma.pet.createMany({
    data: ['Rex', 'Fido', 'Bella'].map((name) => ({ name, categoryId: category.id })),
  });
});
afterAll(async () => {
  vi.restoreAllMocks();
  if (db !== test.db) await db.close();
  await test.drop();
});

const petNamed = async (name: string) => {
  const pet = await db.prisma.pet.findFirst({ where: { name }, include: { category: true } });
  return pet && { name: pet.name, category: pet.category.name };
};

it('prepares a read once and answers each call with its own arguments', async () => {
  prepared.length = 0;
  expect(await petNamed('Rex')).toEqual({ name: 'Rex', category: 'Dogs' });
  expect(await petNamed('Fido')).toEqual({ name: 'Fido', category: 'Dogs' });
  expect(await petNamed('Bella')).toEqual({ name: 'Bella', category: 'Dogs' });
  expect(await petNamed('Nobody')).toBeNull();
  if (postgres) {
    const statements = await db.prisma.$queryRawUnsafe<{ statement: string }[]>(
      'SELECT statement FROM pg_prepared_statements',
    );
    expect(statements.filter(({ statement }) => statement.includes('"Pet"')).length).toBeGreaterThan(0);
  } else {
    const petReads = prepared.filter((sql) => sql.includes('Pet') && sql.startsWith('SELECT'));
    expect(new Set(petReads).size).toBeGreaterThan(0);
    expect(petReads.length).toBe(new Set(petReads).size);
  }
});

it('a kept statement reads what was written since, in and out of transactions', async () => {
  expect(await petNamed('Rex')).toEqual({ name: 'Rex', category: 'Dogs' });
  await db.prisma.$transaction(async (tx) => {
    await tx.pet.updateMany({ where: { name: 'Rex' }, data: { name: 'Max' } });
    const inside = await tx.pet.findFirst({ where: { name: 'Max' } });
    expect(inside?.name).toBe('Max');
  });
  expect(await petNamed('Rex')).toBeNull();
  expect(await petNamed('Max')).toEqual({ name: 'Max', category: 'Dogs' });
  await expect(
    db.prisma.$transaction(async (tx) => {
      await tx.pet.updateMany({ where: { name: 'Max' }, data: { name: 'Gone' } });
      throw new Error('undo');
    }),
  ).rejects.toThrow('undo');
  expect(await petNamed('Max')).toEqual({ name: 'Max', category: 'Dogs' });
  expect(await petNamed('Gone')).toBeNull();
});
