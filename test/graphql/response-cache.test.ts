import { expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { useCountingTestApp } from '../support/app.ts';
import { cachedPet, expectFromCache, petOf } from '../support/response-cache.ts';

// The response cache (src/graphql/plugins/response-cache.ts), on by default on SQLite, the only store with a
// per-request check of "has anything changed?" (response-cache-off.db.test.ts: where it is off).

const { app, storeStatementsOf } = useCountingTestApp();

const PET = 'query($id: Int64!) { pets(ids: [$id]) { edges { node { id name inventory { quantity } } } } }';

it('answers a repeated read without running SQL, and the same answer', async () => {
  const pet = await app.createPet({ name: 'Echo', quantity: 3 });
  const read = () => app.ok(PET, { id: pet.id });
  const first = await storeStatementsOf(read);
  expect(first.sql.length).toBeGreaterThan(0);
  await expectFromCache(storeStatementsOf, read, first);
});

it('shows a write made through the API at once, including a side effect the write does not return', async () => {
  const pet = await app.createPet({ name: 'Ordered', quantity: 3 });
  const cached = await cachedPet(app, PET, pet.id);
  // placeOrder returns the order, not the pet; the pet's stock changes all the same.
  await app.ok('mutation($petId: Int64!) { placeOrder(input: { petId: $petId, quantity: 2 }) { id } }', {
    petId: pet.id,
  });
  expect(await cached.again()).toMatchObject({ inventory: { quantity: 1 } });
});

it('shows a write committed by another connection (another gateway process, a script) at once', async () => {
  const pet = await app.createPet({ name: 'Elsewhere', quantity: 3 });
  const cached = await cachedPet(app, PET, pet.id);
  const other = await openDatabase(app.database.url);
  try {
    await other.prisma.pet.update({ where: { id: BigInt(pet.id) }, data: { name: 'Renamed elsewhere' } });
  } finally {
    await other.close();
  }
  expect(await cached.again()).toMatchObject({ name: 'Renamed elsewhere' });
});

it('caches REST reads too, and shows REST writes at once', async () => {
  const pet = await app.createPet({ name: 'Rest', quantity: 3 });
  const get = async () => (await app.get(`/pets/${pet.id}`, { key: null })).body;
  await expectFromCache(storeStatementsOf, get, await storeStatementsOf(get));
  const renamed = await app.send('PUT', `/pets/${pet.id}`, {
    body: { name: 'Rest renamed', categoryId: pet.categoryId, status: 'available' },
  });
  expect(renamed.status).toBe(200);
  expect(await get()).toMatchObject({ name: 'Rest renamed' });
});

it('never keeps a result with errors', async () => {
  const missing = 2 ** 40;
  const query = 'query($id: Int64!) { pet(id: $id) { id } }';
  const first = await storeStatementsOf(() => app.fails(query, { id: missing }));
  const second = await storeStatementsOf(() => app.fails(query, { id: missing }));
  expect(first.result.code).toBe('NOT_FOUND');
  expect(second.result.code).toBe('NOT_FOUND');
  expect(second.sql.length).toBeGreaterThan(0);
});

it("never keeps the caller's own quota", async () => {
  const query = '{ rateLimit { remaining } }';
  const first = (await app.ok(query)).rateLimit.remaining;
  const second = (await app.ok(query)).rateLimit.remaining;
  expect(second).toBe(first - 1);
});

it('keys results by variables and by operation name', async () => {
  const first = await app.createPet({ name: 'Key one' });
  const second = await app.createPet({ name: 'Key two' });
  expect(petOf(await app.ok(PET, { id: first.id }))).toMatchObject({ name: 'Key one' });
  expect(petOf(await app.ok(PET, { id: second.id }))).toMatchObject({ name: 'Key two' });
  const again = await storeStatementsOf(() => app.ok(PET, { id: first.id }));
  expect(again.sql).toEqual([]);
  expect(petOf(again.result)).toMatchObject({ name: 'Key one' });

  const document = `query First { pets(ids: [${first.id}]) { edges { node { name } } } }
    query Second { pets(ids: [${second.id}]) { edges { node { name } } } }`;
  const run = async (operationName: string) =>
    (await app.postGraphQL({ query: document, operationName }, { key: null })).body;
  expect(petOf((await run('First')).data)).toEqual({ name: 'Key one' });
  expect(petOf((await run('Second')).data)).toEqual({ name: 'Key two' });
  expect(petOf((await run('First')).data)).toEqual({ name: 'Key one' });
});
