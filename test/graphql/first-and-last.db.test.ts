import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';

const app = useTestApp();
beforeAll(async () => {
  await app.createPet({ name: 'Rex' });
  await app.createPet({ name: 'Ida' });
});

// Every connection field of the schema, as a query that asks it for both ends at once.
const BOTH_ENDS = {
  pets: `{ pets(first: 2, last: 2) { edges { node { id } } } }`,
  categories: `{ categories(first: 2, last: 2) { edges { node { id } } } }`,
  inventory: `{ inventory(first: 2, last: 2) { edges { node { petId } } } }`,
  orders: `{ orders(first: 2, last: 2) { edges { node { id } } } }`,
  'Category.pets': `{ categories(first: 1) { edges { node { pets(first: 2, last: 2) { edges { node { id } } } } } } }`,
};

it('refuses first with last on every connection: 400 VALIDATION_FAILED naming both (Relay recommends it)', async () => {
  for (const [field, query] of Object.entries(BOTH_ENDS)) {
    const { status, body } = await app.graphql(query);
    expect(status, field).toBe(200);
    expect(body.errors, field).toHaveLength(1);
    expect(body.errors?.[0], field).toMatchObject({
      message: 'first, last: give one of them, not both (first pages forward, last backward)',
      extensions: { code: 'VALIDATION_FAILED', status: 400 },
    });
  }
});

it('still answers first alone and last alone', async () => {
  const first = await app.ok(`{ pets(first: 1) { edges { node { name } } } }`);
  expect(first.pets.edges).toEqual([{ node: { name: 'Rex' } }]);
  const last = await app.ok(`{ pets(last: 1) { edges { node { name } } } }`);
  expect(last.pets.edges).toEqual([{ node: { name: 'Ida' } }]);
});
