// One input rule for both APIs: every field of every input, given each bad value, is refused with the same code
// and message over REST (the body) and GraphQL (the operation's $input), and nothing changes in the store.
import { beforeAll, describe, expect, it } from 'vitest';
import { useRestClient } from '../rest/client.ts';
import { useTestApp } from '../support/app.ts';

const app = useTestApp();
const rest = useRestClient(app);
let ids: { categoryId: number; petId: number; orderId: number };

beforeAll(async () => {
  const categoryId = (await rest.post('/categories', { name: 'Dogs', description: 'Barks' })).body.id;
  const petId = (await rest.post('/pets', { name: 'Rex', categoryId })).body.id;
  await rest.put(`/store/inventory/${petId}`, { quantity: 5 });
  const orderId = (await rest.post('/store/orders', { petId })).body.id;
  ids = { categoryId, petId, orderId };
});

/** Everything a refused write could have touched. */
async function snapshot() {
  const { prisma } = app;
  return {
    pets: await prisma.pet.findMany({ orderBy: { id: 'asc' } }),
    categories: await prisma.category.findMany({ orderBy: { id: 'asc' } }),
    orders: await prisma.order.findMany({ orderBy: { id: 'asc' } }),
    inventory: await prisma.inventoryItem.findMany({ orderBy: { petId: 'asc' } }),
  };
}

interface Input {
  /** The input type, and a valid value of it to which each bad value is added. */
  type: string;
  valid: () => Record<string, unknown>;
  /** The REST request whose body is this input. */
  rest: (body: unknown) => Promise<{ status: number; body: { code: string; message: string } }>;
  /** The GraphQL operation that takes it as `$input`, with its other variables. */
  graphql: { query: string; variables?: () => Record<string, unknown> };
  /** Bad values by field. */
  bad: Record<string, unknown[]>;
}

const LONG_NAME = 'x'.repeat(201);
const TEXT = ['', '   ', 'a\u0000b', 'a\u007fb', '\ud800', 5, true, {}, ['Rex']];
const NAME = [...TEXT, LONG_NAME, 'a\tb', 'a\nb'];
const DESCRIPTION = [...TEXT, 'x'.repeat(2001)];
const INT64 = ['abc', '007', 1.5, true, '9223372036854775808', 9007199254740992];
const STATUS = ['lost', 'AVAILABLE', 5];
const QUANTITY = [-1, 1_000_001, 1.5, '3', 2 ** 31, true];
const DATE_TIME = ['tomorrow', '2026-11-21', 5, '2026-13-01T00:00:00Z'];

const INPUTS: Input[] = [
  {
    type: 'NewPet (POST /pets)',
    valid: () => ({ name: 'Ida', categoryId: ids.categoryId }),
    rest: (body) => rest.post('/pets', body),
    graphql: { query: 'mutation($input: NewPet!) { createPet(input: $input) { id } }' },
    bad: {
      name: [...NAME, null, undefined],
      categoryId: [...INT64, 999_999, null, undefined],
      status: STATUS,
      owner: ['Ann'],
    },
  },
  {
    type: 'NewPet (PUT /pets/{petId})',
    valid: () => ({ name: 'Ida', categoryId: ids.categoryId }),
    rest: (body) => rest.put(`/pets/${ids.petId}`, body),
    graphql: { query: 'mutation($input: NewPet!) { createPet(input: $input) { id } }' },
    bad: {
      name: [...NAME, null, undefined],
      categoryId: [...INT64, 999_999, null, undefined],
      status: STATUS,
    },
  },
  {
    type: 'PetPatch (PATCH /pets/{petId})',
    valid: () => ({}),
    rest: (body) => rest.patch(`/pets/${ids.petId}`, body),
    graphql: {
      query: 'mutation($id: Int64!, $input: PetPatch!) { updatePet(id: $id, input: $input) { id } }',
      variables: () => ({ id: ids.petId }),
    },
    bad: {
      name: [...NAME, null],
      categoryId: [...INT64, 999_999, null],
      status: [...STATUS, null],
      owner: [1],
    },
  },
  {
    type: 'NewCategory (POST /categories)',
    valid: () => ({ name: 'Cats' }),
    rest: (body) => rest.post('/categories', body),
    graphql: { query: 'mutation($input: NewCategory!) { createCategory(input: $input) { id } }' },
    bad: { name: [...NAME, null, undefined], description: DESCRIPTION, kind: ['x'] },
  },
  {
    type: 'NewCategory (PUT /categories/{categoryId})',
    valid: () => ({ name: 'Cats' }),
    rest: (body) => rest.put(`/categories/${ids.categoryId}`, body),
    graphql: { query: 'mutation($input: NewCategory!) { createCategory(input: $input) { id } }' },
    bad: { name: [...NAME, null, undefined], description: DESCRIPTION },
  },
  {
    type: 'CategoryPatch (PATCH /categories/{categoryId})',
    valid: () => ({}),
    rest: (body) => rest.patch(`/categories/${ids.categoryId}`, body),
    graphql: {
      query:
        'mutation($id: Int64!, $input: CategoryPatch!) { updateCategory(id: $id, input: $input) { id } }',
      variables: () => ({ id: ids.categoryId }),
    },
    bad: { name: [...NAME, null], description: DESCRIPTION },
  },
  {
    type: 'NewOrder (POST /store/orders)',
    valid: () => ({ petId: ids.petId }),
    rest: (body) => rest.post('/store/orders', body),
    graphql: { query: 'mutation($input: NewOrder!) { placeOrder(input: $input) { id } }' },
    bad: {
      petId: [...INT64, 999_999, null, undefined],
      quantity: [0, ...QUANTITY],
      shipDate: DATE_TIME,
      note: ['x'],
    },
  },
  {
    type: 'OrderPatch (PATCH /store/orders/{orderId})',
    valid: () => ({}),
    rest: (body) => rest.patch(`/store/orders/${ids.orderId}`, body),
    graphql: {
      query: 'mutation($id: Int64!, $input: OrderPatch!) { updateOrder(id: $id, input: $input) { id } }',
      variables: () => ({ id: ids.orderId }),
    },
    bad: { shipDate: DATE_TIME, complete: ['yes', 1, null] },
  },
  {
    type: 'InventoryUpdate (PUT /store/inventory/{petId})',
    valid: () => ({ quantity: 3 }),
    rest: (body) => rest.put(`/store/inventory/${ids.petId}`, body),
    graphql: {
      query:
        'mutation($id: Int64!, $input: InventoryUpdate!) { updateInventory(petId: $id, input: $input) { petId } }',
      variables: () => ({ id: ids.petId }),
    },
    bad: { quantity: [...QUANTITY, null, undefined] },
  },
];

const shown = (value: unknown) => (value === undefined ? '(left out)' : JSON.stringify(value).slice(0, 40));

describe.each(INPUTS)('$type', (input) => {
  it.each(Object.keys(input.bad))(
    '%s: each bad value answers alike on both APIs and changes nothing',
    async (field) => {
      const before = await snapshot();
      for (const value of input.bad[field] ?? []) {
        const body: Record<string, unknown> = { ...input.valid(), [field]: value };
        if (value === undefined) delete body[field];
        const where = `${input.type} ${field} = ${shown(value)}`;
        const overRest = await input.rest(body);
        const overGraphQL = await app.graphql(input.graphql.query, {
          ...input.graphql.variables?.(),
          input: body,
        });
        const [error] = overGraphQL.body.errors ?? [];
        expect(overRest.status, `${where}: ${JSON.stringify(overRest.body)}`).toBe(400);
        expect(overRest.body.code, where).toBe('VALIDATION_FAILED');
        expect({ code: error?.extensions?.code, message: error?.message }, where).toEqual({
          code: overRest.body.code,
          message: overRest.body.message,
        });
        // The message names the field at fault first.
        expect(overRest.body.message, where).toMatch(new RegExp(`^${field}: `));
      }
      expect(await snapshot()).toEqual(before);
    },
  );
});

describe('null', () => {
  it('means the same on both APIs: the default on a create, cleared or refused on a change (docs/store-rules.md)', async () => {
    const overRest = await rest.post('/pets', { name: 'Nil', categoryId: ids.categoryId, status: null });
    const overGraphQL = await app.ok('mutation($input: NewPet!) { createPet(input: $input) { status } }', {
      input: { name: 'Nil', categoryId: ids.categoryId, status: null },
    });
    expect(overRest.status).toBe(201);
    expect(overRest.body.status).toBe('available');
    expect(overGraphQL.createPet.status).toBe('available');

    const category = await rest.post('/categories', { name: 'Birds', description: null });
    expect(category.status).toBe(201);
    expect(category.body.description).toBeUndefined();
    const described = await rest.patch(`/categories/${category.body.id}`, { description: 'Sing' });
    expect(described.body.description).toBe('Sing');
    const cleared = await rest.patch(`/categories/${category.body.id}`, { description: null });
    expect(cleared.body.description).toBeUndefined();

    const order = await rest.post('/store/orders', { petId: ids.petId, quantity: null, shipDate: null });
    expect(order.status).toBe(201);
    expect(order.body.quantity).toBe(1);
  });
});
