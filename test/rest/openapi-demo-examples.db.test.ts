// The OpenAPI document's examples are the demo catalogue as a first start seeds it: on a seeded store, the
// requests /docs describes answer exactly what it shows (no `"id": 0`).
import { beforeAll, expect, it } from 'vitest';
import { seedDemoCatalogue } from '../../src/store/demo-catalogue.ts';
import { useTestApp } from '../support/app.ts';
import { useRestClient } from './client.ts';

const app = useTestApp();
const rest = useRestClient(app);
// biome-ignore lint/suspicious/noExplicitAny: the document is read as JSON
let schemas: Record<string, any>;
beforeAll(async () => {
  expect(await seedDemoCatalogue(app.database.db)).toBe(true);
  schemas = (rest.document as unknown as { components: { schemas: typeof schemas } }).components.schemas;
});

/** The example a status of an operation shows for `code`. */
function errorExample(path: string, method: string, status: number, code: string) {
  const response = rest.document.paths[path]?.[method]?.responses[String(status)] as unknown as {
    content: { 'application/json': { example?: unknown; examples?: Record<string, { value: unknown }> } };
  };
  const media = response.content['application/json'];
  return media.examples?.[code]?.value ?? media.example;
}

it('shows pets, categories and stock as the seeded store answers them', async () => {
  expect((await rest.get('/pets?limit=2', { key: null })).body).toEqual(schemas.Pets.example);
  expect((await rest.get(`/pets?ids=${schemas.Pet.example.id}`, { key: null })).body).toEqual([
    schemas.Pet.example,
  ]);
  expect((await rest.get(`/categories/${schemas.Category.example.id}`, { key: null })).body).toEqual(
    schemas.Category.example,
  );
  const { petId } = schemas.InventoryItem.example;
  expect((await rest.get(`/store/inventory/${petId}`, { key: null })).body).toEqual(
    schemas.InventoryItem.example,
  );
});

it("shows the first order a client places, and the refusals' messages about the demo pets", async () => {
  const { id: _id, complete: _complete, ...order } = schemas.Order.example;
  const placed = await rest.post('/store/orders', order);
  expect(placed.status).toBe(201);
  expect(placed.body).toEqual(schemas.Order.example);

  const outOfStock = errorExample('/store/orders', 'post', 409, 'OUT_OF_STOCK') as { message: string };
  const [, petId, quantity] = outOfStock.message.match(/^Pet (\d+) has \d+ in stock; (\d+) requested/) ?? [];
  const refused = await rest.post('/store/orders', { petId: Number(petId), quantity: Number(quantity) });
  expect(refused.body).toEqual(outOfStock);

  const conflict = errorExample('/categories/{categoryId}', 'delete', 409, 'CONFLICT') as { message: string };
  const [, categoryId] = conflict.message.match(/^Category (\d+) /) ?? [];
  expect((await rest.delete(`/categories/${categoryId}`)).body).toEqual(conflict);
  // Refused: the category and its pets are still there.
  expect((await rest.get(`/categories/${categoryId}`)).status).toBe(200);
  expect((await rest.get(`/pets?categoryId=${categoryId}`)).body).toHaveLength(1);
});
