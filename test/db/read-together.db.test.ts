import { afterAll, beforeAll, expect, it } from 'vitest';
import { findUniqueTogether } from '../../src/db/read-together.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';

// Reads by id that start in different ticks of one turn of the event loop (requests arriving together) share
// one statement (src/db/read-together.ts), and each still answers its own id, as findUnique would.
let test: TestDatabase;
let statements: string[] = [];
const petIds: bigint[] = [];

beforeAll(async () => {
  test = await createTestDatabase({ onQuery: (sql) => statements.push(sql) });
  const category = await test.db.prisma.category.create({ data: { name: 'Dogs' } });
  for (const name of ['Rex', 'Fido', 'Bella', 'Max']) {
    petIds.push((await test.db.prisma.pet.create({ data: { name, categoryId: category.id } })).id);
  }
});
afterAll(() => test.drop());

/** Lets Prisma's own batching window (one tick) close, as the next request's socket callback would. */
const nextTick = () => new Promise<void>((resolve) => process.nextTick(resolve));

const SELECTION = { select: { name: true, category: { select: { name: true } } } };
const readPet = (id: bigint | number) => findUniqueTogether(test.db.prisma.pet, 'id', id, SELECTION);

const petStatements = () =>
  statements.filter((sql) => /FROM\s+\S*Pet\S*\s/i.test(sql) && !/ApiKey/i.test(sql));

it('reads started in different ticks of one loop turn share their statements, each answering its own id', async () => {
  statements = [];
  const reads: Promise<unknown>[] = [];
  for (const id of [...petIds, 999_999n]) {
    reads.push(readPet(id));
    await nextTick();
  }
  expect(await Promise.all(reads)).toEqual([
    { name: 'Rex', category: { name: 'Dogs' } },
    { name: 'Fido', category: { name: 'Dogs' } },
    { name: 'Bella', category: { name: 'Dogs' } },
    { name: 'Max', category: { name: 'Dogs' } },
    null,
  ]);
  expect(petStatements()).toHaveLength(1);
});

it('reads in different loop turns are read apart (the latest rows, never an earlier answer)', async () => {
  statements = [];
  expect(await readPet(petIds[0] as bigint)).toEqual({ name: 'Rex', category: { name: 'Dogs' } });
  await test.db.prisma.pet.update({ where: { id: petIds[0] }, data: { name: 'Rex II' } });
  expect(await readPet(petIds[0] as bigint)).toEqual({ name: 'Rex II', category: { name: 'Dogs' } });
  expect(petStatements().filter((sql) => /^SELECT/i.test(sql))).toHaveLength(2);
});

it('a read Prisma refuses rejects only the reads of its own selection', async () => {
  const failing = findUniqueTogether(test.db.prisma.pet, 'id', petIds[0], { select: { nope: true } });
  const fine = readPet(petIds[1] as bigint);
  await expect(failing).rejects.toThrow(/nope/);
  expect(await fine).toEqual({ name: 'Fido', category: { name: 'Dogs' } });
});

it('answers the same id asked twice, as a BigInt or a number, each caller with an object of its own', async () => {
  statements = [];
  const id = petIds[2] as bigint;
  const [first, second, third] = await Promise.all([readPet(id), readPet(Number(id)), readPet(id)]);
  expect(first).toEqual({ name: 'Bella', category: { name: 'Dogs' } });
  expect(second).toEqual(first);
  expect(third).toEqual(first);
  expect(second).not.toBe(first);
  expect(petStatements()).toHaveLength(1);
});

it('reads apart what differs: the model, the column, the selection, and a transaction from the store', async () => {
  statements = [];
  const [pet, withId, inventory, category] = await Promise.all([
    readPet(petIds[0] as bigint),
    findUniqueTogether(test.db.prisma.pet, 'id', petIds[0], { select: { id: true, name: true } }),
    findUniqueTogether(test.db.prisma.inventoryItem, 'petId', petIds[0]),
    findUniqueTogether(test.db.prisma.category, 'id', 999_999n),
  ]);
  expect(pet).toMatchObject({ category: { name: 'Dogs' } });
  expect(withId).toEqual({ id: petIds[0], name: (pet as { name: string }).name });
  expect(inventory).toBeNull();
  expect(category).toBeNull();
  expect(petStatements()).toHaveLength(2);
  // Inside a transaction the read sees the transaction's own uncommitted write; outside, the store as it is.
  const before = await readPet(petIds[3] as bigint);
  await test.db.prisma
    .$transaction(async (transaction) => {
      await transaction.pet.update({ where: { id: petIds[3] }, data: { name: 'Maxine' } });
      const [inside] = await Promise.all([
        findUniqueTogether(transaction.pet, 'id', petIds[3], SELECTION),
        // SQLite has one connection: a read outside would wait for the transaction.
        ...(test.target.provider === 'postgresql'
          ? [expect(readPet(petIds[3] as bigint)).resolves.toEqual(before)]
          : []),
      ]);
      expect(inside).toEqual({ name: 'Maxine', category: { name: 'Dogs' } });
      throw new Error('roll back');
    })
    .catch((error: Error) => expect(error.message).toBe('roll back'));
  expect(await readPet(petIds[3] as bigint)).toEqual(before);
});

it('a where in the selection narrows the rows: an id outside it is null, in one statement with the others', async () => {
  statements = [];
  const named = (name: string) => ({ ...SELECTION, where: { name } });
  const [rex, notFido, fido, none] = await Promise.all([
    findUniqueTogether(test.db.prisma.pet, 'id', petIds[1], named('Fido')),
    findUniqueTogether(test.db.prisma.pet, 'id', petIds[2], named('Fido')),
    findUniqueTogether(test.db.prisma.pet, 'id', petIds[1], named('Fido')),
    // An empty set of allowed ids (an anonymous caller's orders) is not widened by the ids looked up.
    findUniqueTogether(test.db.prisma.pet, 'id', petIds[1], { ...SELECTION, where: { id: { in: [] } } }),
  ]);
  expect(rex).toEqual({ name: 'Fido', category: { name: 'Dogs' } });
  expect(notFido).toBeNull();
  expect(fido).toEqual(rex);
  expect(none).toBeNull();
  // One statement for the two lookups narrowed alike, one for the other narrowing.
  expect(petStatements()).toHaveLength(2);
});

let app: TestApp;
it('concurrent GraphQL and REST requests by id each get their own pet, or NOT_FOUND', async () => {
  app = await startTestApp({ env: { RESPONSE_CACHE_ENTRIES: '0' } });
  try {
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push((await app.createPet({ name: `pet-${i}` })).id);
    const missing = ids.map((id) => id + 1000);
    const [byGraphQL, byRest] = await Promise.all([
      Promise.all([...ids, ...missing].map((id) => app.graphql(`{ pet(id: ${id}) { id name } }`))),
      Promise.all(ids.map(async (id) => (await app.fetch(`/pets/${id}`)).json())),
    ]);
    ids.forEach((id, i) => {
      expect(byGraphQL[i]?.body.data?.pet).toEqual({ id, name: `pet-${i}` });
      expect(byRest[i]).toMatchObject({ id, name: `pet-${i}` });
    });
    for (const answer of byGraphQL.slice(ids.length)) {
      expect(answer.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    }
  } finally {
    await app.close();
  }
});
