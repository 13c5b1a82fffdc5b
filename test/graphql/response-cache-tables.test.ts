import Sqlite from 'better-sqlite3';
import { expect, it } from 'vitest';
import { useCountingTestApp } from '../support/app.ts';
import { cachedPet, expectFromCache } from '../support/response-cache.ts';

// The response cache drops only the results that read a table that changed (per-table counters kept by
// triggers, src/db/store-version.ts): a write to orders or stock leaves cached pets in place, and a change to
// the tables a result read shows at once, whoever made it.

const { app, storeStatementsOf } = useCountingTestApp();

// A pet with its category's name, as the benchmark reads it: no stock, no orders.
const PET = 'query($id: Int64!) { pets(ids: [$id]) { edges { node { id name category { name } } } } }';
const STOCK = 'query($petId: Int64!) { inventoryItem(petId: $petId) { quantity status } }';

const setStock = (petId: number, quantity: number) =>
  app.ok(
    'mutation($petId: Int64!, $q: Int!) { updateInventory(petId: $petId, input: { quantity: $q }) { quantity } }',
    { petId, q: quantity },
  );

/** A script's write: its own connection to the database file, no gateway involved. */
function script(sql: string, ...params: unknown[]) {
  const { target } = app.database.db;
  if (target.provider !== 'sqlite') throw new Error('the response cache is SQLite only');
  const db = new Sqlite(target.file);
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

it('keeps a pet read across orders placed and cancelled and stock set, without running SQL', async () => {
  const pet = await app.createPet({ name: 'Steady', quantity: 5 });
  const first = await storeStatementsOf(() => app.ok(PET, { id: pet.id }));
  expect(first.sql.length).toBeGreaterThan(0);

  const { placeOrder } = await app.ok(
    'mutation($petId: Int64!) { placeOrder(input: { petId: $petId, quantity: 2 }) { id } }',
    { petId: pet.id },
  );
  await app.ok('mutation($id: Int64!) { cancelOrder(id: $id) { id } }', { id: placeOrder.id });
  await setStock(pet.id, 9);

  await expectFromCache(storeStatementsOf, () => app.ok(PET, { id: pet.id }), first);
});

it('shows a pet or category write made through the API at once', async () => {
  const pet = await app.createPet({ name: 'Before', quantity: 1 });
  const cached = await cachedPet(app, PET, pet.id);
  await app.ok('mutation($id: Int64!) { updatePet(id: $id, input: { name: "After" }) { id } }', {
    id: pet.id,
  });
  expect(await cached.again()).toMatchObject({ name: 'After' });

  await app.ok(
    'mutation($id: Int64!) { updateCategory(id: $id, input: { name: "Renamed animals" }) { id } }',
    {
      id: pet.categoryId,
    },
  );
  expect(await cached.again()).toMatchObject({ category: { name: 'Renamed animals' } });
});

it('shows a pet or category write made by a script on the database file at once', async () => {
  const pet = await app.createPet({ name: 'Scripted', quantity: 1 });
  const cached = await cachedPet(app, PET, pet.id);
  script('UPDATE "Pet" SET "name" = ? WHERE "id" = ?', 'Renamed by a script', pet.id);
  expect(await cached.again()).toMatchObject({ name: 'Renamed by a script' });

  script('UPDATE "Category" SET "name" = ? WHERE "id" = ?', 'Animals, by a script', pet.categoryId);
  expect(await cached.again()).toMatchObject({ category: { name: 'Animals, by a script' } });
});

it('shows an order in the stock it took at once, and a script setting the stock', async () => {
  const pet = await app.createPet({ name: 'Stocked', quantity: 3 });
  expect((await app.ok(STOCK, { petId: pet.id })).inventoryItem).toEqual({
    quantity: 3,
    status: 'available',
  });
  await app.ok('mutation($petId: Int64!) { placeOrder(input: { petId: $petId, quantity: 3 }) { id } }', {
    petId: pet.id,
  });
  expect((await app.ok(STOCK, { petId: pet.id })).inventoryItem).toEqual({ quantity: 0, status: 'pending' });

  script('UPDATE "InventoryItem" SET "quantity" = 7 WHERE "petId" = ?', pet.id);
  expect((await app.ok(STOCK, { petId: pet.id })).inventoryItem).toEqual({
    quantity: 7,
    status: 'available',
  });
});

it('counts the changes of every table of the store', async () => {
  const { target } = app.database.db;
  if (target.provider !== 'sqlite') throw new Error('the response cache is SQLite only');
  const db = new Sqlite(target.file, { readonly: true });
  try {
    const tables = db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND name NOT IN ('_prisma_migrations', 'TableVersion') ORDER BY name`,
      )
      .pluck()
      .all();
    const counted = db.prepare('SELECT name FROM "TableVersion" ORDER BY name').pluck().all();
    expect(counted).toEqual(tables);
    for (const table of tables) {
      const triggers = db
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? ORDER BY name`)
        .pluck()
        .all(table);
      expect(triggers).toEqual([
        `${table}_delete_version`,
        `${table}_insert_version`,
        `${table}_update_version`,
      ]);
    }
  } finally {
    db.close();
  }
});
