import { afterAll, beforeAll, expect, it } from 'vitest';
import { readTogether } from '../../src/db/read-together.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';

// Reads by id that start in different ticks of one turn of the event loop (requests arriving together) share
// Prisma's statements (src/db/read-together.ts), and each still answers its own id.
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

const readPet = (id: bigint) =>
  readTogether(() =>
    test.db.prisma.pet.findUnique({
      where: { id },
      select: { name: true, category: { select: { name: true } } },
    }),
  );

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

it('a read that fails rejects only its own caller', async () => {
  const failing = readTogether(() => Promise.reject(new Error('refused')));
  const fine = readPet(petIds[1] as bigint);
  await expect(failing).rejects.toThrow('refused');
  expect(await fine).toEqual({ name: 'Fido', category: { name: 'Dogs' } });
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
      Promise.all(ids.map(async (id) => (await fetch(`${app.url}/pets/${id}`)).json())),
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
