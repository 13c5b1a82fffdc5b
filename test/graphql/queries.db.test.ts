import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';

let dogs: number;
let cats: number;
const ids: Record<string, number> = {};

const app = useTestApp();
beforeAll(async () => {
  dogs = (await app.ok(`mutation { createCategory(input: { name: "Dogs", description: "Loyal" }) { id } }`))
    .createCategory.id;
  cats = (await app.ok(`mutation { createCategory(input: { name: "Cats" }) { id } }`)).createCategory.id;
  for (const [name, categoryId, status] of [
    ['Rex', dogs, 'available'],
    ['Fido', dogs, 'sold'],
    ['Tom', cats, 'available'],
    ['Luna', cats, 'pending'],
    ['Max', dogs, 'available'],
  ] as const) {
    ids[name] = (await app.createPet({ name, categoryId, status })).id;
  }
});

const names = (connection: { edges: { node: { name: string } }[] }) =>
  connection.edges.map((e) => e.node.name);

describe('pets', () => {
  it('reads one pet by its REST id, with its category and inventory', async () => {
    const { pet } = await app.ok(
      `query($id: Int64!) { pet(id: $id) { id name status categoryId category { name } inventory { quantity status } } }`,
      { id: ids.Rex },
    );
    expect(pet).toEqual({
      id: ids.Rex,
      name: 'Rex',
      status: 'available',
      categoryId: dogs,
      category: { name: 'Dogs' },
      inventory: { quantity: 0, status: 'sold' },
    });
  });

  it('accepts an id literal and an id as a string of digits', async () => {
    expect((await app.ok(`{ pet(id: ${ids.Tom}) { name } }`)).pet.name).toBe('Tom');
    expect(
      (await app.ok(`query($id: Int64!) { pet(id: $id) { name } }`, { id: String(ids.Tom) })).pet.name,
    ).toBe('Tom');
  });

  it('pages with first/after and pageInfo, in id order', async () => {
    const page1 = (
      await app.ok(`{ pets(first: 2) { edges { cursor node { name } } pageInfo { hasNextPage endCursor } } }`)
    ).pets;
    expect(names(page1)).toEqual(['Rex', 'Fido']);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const page2 = (
      await app.ok(
        `query($after: String) { pets(first: 10, after: $after) { edges { node { name } } pageInfo { hasNextPage } } }`,
        {
          after: page1.pageInfo.endCursor,
        },
      )
    ).pets;
    expect(names(page2)).toEqual(['Tom', 'Luna', 'Max']);
    expect(page2.pageInfo.hasNextPage).toBe(false);
  });

  it('filters by status, category and ids', async () => {
    const query = `query($status: PetStatus, $categoryId: Int64, $ids: [Int64!]) {
      pets(status: $status, categoryId: $categoryId, ids: $ids, first: 100) { edges { node { name } } } }`;
    expect(names((await app.ok(query, { status: 'available', categoryId: dogs })).pets)).toEqual([
      'Rex',
      'Max',
    ]);
    expect(names((await app.ok(query, { categoryId: cats })).pets)).toEqual(['Tom', 'Luna']);
    expect(names((await app.ok(query, { ids: [ids.Max, ids.Luna] })).pets)).toEqual(['Luna', 'Max']);
  });

  it('lists a category with its pets', async () => {
    const { category } = await app.ok(
      `query($id: Int64!) { category(id: $id) { name description pets { edges { node { name } } } } }`,
      {
        id: cats,
      },
    );
    expect(category).toEqual({
      name: 'Cats',
      description: null,
      pets: { edges: [{ node: { name: 'Tom' } }, { node: { name: 'Luna' } }] },
    });
  });

  it('caps the page size with a clear error', async () => {
    const error = await app.fails(`{ pets(first: 101) { edges { node { id } } } }`);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect(error.message).toBe('first: must be between 0 and 100 (got 101)');
  });

  it('refuses a malformed cursor', async () => {
    expect(await app.fails(`{ pets(after: "nonsense") { edges { node { id } } } }`)).toMatchObject({
      code: 'VALIDATION_FAILED',
      status: 400,
    });
  });

  it('names the missing record', async () => {
    const error = await app.fails(`{ pet(id: 424242) { id } }`);
    expect(error).toEqual({ message: 'Pet 424242 does not exist', code: 'NOT_FOUND', status: 404 });
  });
});

describe('writes return the object itself', () => {
  it('creates, updates and deletes a category', async () => {
    const { createCategory } = await app.ok(
      `mutation { createCategory(input: { name: " Fish ", description: "Wet" }) { id name description } }`,
    );
    expect(createCategory).toMatchObject({ name: 'Fish', description: 'Wet' });
    const { updateCategory } = await app.ok(
      `mutation($id: Int64!) { updateCategory(id: $id, input: { description: null }) { id name description } }`,
      { id: createCategory.id },
    );
    expect(updateCategory).toEqual({ id: createCategory.id, name: 'Fish', description: null });
    const { deleteCategory } = await app.ok(`mutation($id: Int64!) { deleteCategory(id: $id) { id name } }`, {
      id: createCategory.id,
    });
    expect(deleteCategory).toEqual({ id: createCategory.id, name: 'Fish' });
    expect(
      (await app.fails(`query($id: Int64!) { category(id: $id) { id } }`, { id: createCategory.id })).code,
    ).toBe('NOT_FOUND');
  });

  it('updates only the given fields of a pet', async () => {
    const pet = await app.createPet({ name: 'Patchy', categoryId: dogs });
    const { updatePet } = await app.ok(
      `mutation($id: Int64!, $c: Int64!) { updatePet(id: $id, input: { status: pending, categoryId: $c }) { name status categoryId } }`,
      { id: pet.id, c: cats },
    );
    expect(updatePet).toEqual({ name: 'Patchy', status: 'pending', categoryId: cats });
  });

  it('refuses invalid input naming the field, and changes nothing', async () => {
    const before = await app.count('pet');
    const cases: [string, Record<string, unknown>, RegExp][] = [
      [
        `mutation($c: Int64!) { createPet(input: { name: "  ", categoryId: $c }) { id } }`,
        { c: dogs },
        /^name: must not be empty/,
      ],
      [
        `mutation { createPet(input: { name: "Ghost", categoryId: 999999 }) { id } }`,
        {},
        /^categoryId: category 999999 does not exist/,
      ],
      [
        `mutation($c: Int64!) { createPet(input: { name: "${'x'.repeat(201)}", categoryId: $c }) { id } }`,
        { c: dogs },
        /^name: must be at most 200/,
      ],
      [
        `mutation($id: Int64!) { updatePet(id: $id, input: { name: null }) { id } }`,
        { id: ids.Rex },
        /^name: must not be null/,
      ],
    ];
    for (const [query, variables, message] of cases) {
      const error = await app.fails(query, variables);
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
      expect(error.message).toMatch(message);
    }
    expect(await app.count('pet')).toBe(before);
    expect((await app.ok(`query($id: Int64!) { pet(id: $id) { name } }`, { id: ids.Rex })).pet.name).toBe(
      'Rex',
    );
  });

  it('reports a wrongly typed variable as VALIDATION_FAILED naming the variable', async () => {
    const error = await app.fails(`query($id: Int64!) { pet(id: $id) { id } }`, { id: 'abc' });
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect(error.message).toContain('$id');
  });

  it('reports an unknown field as VALIDATION_FAILED, with HTTP 400 for graphql-response+json clients', async () => {
    const modern = await app.graphql(
      `{ pets { nope } }`,
      {},
      { headers: { accept: 'application/graphql-response+json' } },
    );
    expect(modern.status).toBe(400);
    expect(modern.body.errors?.[0]?.extensions).toEqual({ code: 'VALIDATION_FAILED', status: 400 });
    expect(modern.body.errors?.[0]?.message).toContain('"nope"');
    // GraphQL over HTTP: an application/json client gets 200 for a document that fails validation.
    const legacy = await app.graphql(`{ pets { nope } }`, {}, { headers: { accept: 'application/json' } });
    expect(legacy.status).toBe(200);
    expect(legacy.body.errors?.[0]?.extensions).toEqual({ code: 'VALIDATION_FAILED', status: 400 });
  });
});
