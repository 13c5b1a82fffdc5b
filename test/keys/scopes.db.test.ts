import { beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../src/contract/scopes.ts';
import { useRestClient } from '../rest/client.ts';
import { useTestApp } from '../support/app.ts';
import { createTestKey } from '../support/keys.ts';

const app = useTestApp();
const rest = useRestClient(app);
let keys: Record<'readOnly' | 'orders' | 'catalog' | 'admin', string>;
let pet: { id: number; categoryId: number };
beforeAll(async () => {
  const key = (scopes: Scope[]) => createTestKey(app.prisma, 'business', undefined, scopes);
  keys = {
    readOnly: await key(['read']),
    orders: await key(['read', 'orders']),
    catalog: await key(['read', 'catalog']),
    admin: await key(['read', 'admin']),
  };
  pet = await app.createPet({ name: 'Scoped' });
  await app.ok(`mutation { updateInventory(petId: ${pet.id}, input: { quantity: 1000 }) { quantity } }`);
});

/** Everything a write could change. */
const snapshot = async () => ({
  pets: await app.prisma.pet.findMany({ orderBy: { id: 'asc' } }),
  categories: await app.prisma.category.findMany({ orderBy: { id: 'asc' } }),
  orders: await app.prisma.order.findMany({ orderBy: { id: 'asc' } }),
  inventory: await app.prisma.inventoryItem.findMany({ orderBy: { petId: 'asc' } }),
});

/** An open order placed by the admin test key, for the order writes to act on. */
async function openOrder(): Promise<number> {
  return (await app.ok(`mutation { placeOrder(input: { petId: ${pet.id} }) { id } }`)).placeOrder.id;
}

/** One of each kind of write, in GraphQL and REST, with the scope it needs. Each runs on fresh records. */
const WRITES: {
  name: string;
  scope: Scope;
  graphql: () => Promise<string>;
  rest: () => Promise<[method: 'post' | 'put' | 'patch' | 'delete', path: string, body?: unknown]>;
}[] = [
  {
    name: 'createPet',
    scope: 'catalog',
    graphql: async () =>
      `mutation { createPet(input: { name: "New", categoryId: ${pet.categoryId} }) { id } }`,
    rest: async () => ['post', '/pets', { name: 'New', categoryId: pet.categoryId }],
  },
  {
    name: 'updatePet',
    scope: 'catalog',
    graphql: async () => `mutation { updatePet(id: ${pet.id}, input: { name: "Renamed" }) { id } }`,
    rest: async () => ['patch', `/pets/${pet.id}`, { name: 'Renamed' }],
  },
  {
    name: 'deletePet',
    scope: 'catalog',
    graphql: async () => `mutation { deletePet(id: ${(await app.createPet({ name: 'Doomed' })).id}) { id } }`,
    rest: async () => ['delete', `/pets/${(await app.createPet({ name: 'Doomed' })).id}`],
  },
  {
    name: 'createCategory',
    scope: 'catalog',
    graphql: async () => `mutation { createCategory(input: { name: "Birds" }) { id } }`,
    rest: async () => ['post', '/categories', { name: 'Birds' }],
  },
  {
    name: 'updateCategory',
    scope: 'catalog',
    graphql: async () =>
      `mutation { updateCategory(id: ${pet.categoryId}, input: { name: "Renamed" }) { id } }`,
    rest: async () => ['put', `/categories/${pet.categoryId}`, { name: 'Renamed' }],
  },
  {
    name: 'deleteCategory',
    scope: 'catalog',
    graphql: async () => {
      const { createCategory } = await app.ok(`mutation { createCategory(input: { name: "Empty" }) { id } }`);
      return `mutation { deleteCategory(id: ${createCategory.id}) { id } }`;
    },
    rest: async () => {
      const { createCategory } = await app.ok(`mutation { createCategory(input: { name: "Empty" }) { id } }`);
      return ['delete', `/categories/${createCategory.id}`];
    },
  },
  {
    name: 'updateInventory',
    scope: 'catalog',
    graphql: async () =>
      `mutation { updateInventory(petId: ${pet.id}, input: { quantity: 999 }) { quantity } }`,
    rest: async () => ['put', `/store/inventory/${pet.id}`, { quantity: 999 }],
  },
  {
    name: 'placeOrder',
    scope: 'orders',
    graphql: async () => `mutation { placeOrder(input: { petId: ${pet.id} }) { id } }`,
    rest: async () => ['post', '/store/orders', { petId: pet.id }],
  },
  {
    name: 'updateOrder',
    scope: 'orders',
    graphql: async () =>
      `mutation { updateOrder(id: ${await openOrder()}, input: { complete: true }) { id } }`,
    rest: async () => ['patch', `/store/orders/${await openOrder()}`, { complete: true }],
  },
  {
    name: 'cancelOrder',
    scope: 'orders',
    graphql: async () => `mutation { cancelOrder(id: ${await openOrder()}) { id } }`,
    rest: async () => ['delete', `/store/orders/${await openOrder()}`],
  },
];

const REFUSING_KEYS = { catalog: ['readOnly', 'orders'], orders: ['readOnly', 'catalog'] } as const;

describe('a write outside the key’s scopes', () => {
  for (const write of WRITES) {
    const refusing = REFUSING_KEYS[write.scope as 'catalog' | 'orders'];
    it(`${write.name} is refused FORBIDDEN naming ${write.scope}, with nothing changed, for keys with ${refusing.join(' or ')}`, async () => {
      for (const holder of refusing) {
        const query = await write.graphql();
        const before = await snapshot();
        const answer = await app.graphql(query, undefined, { key: keys[holder] });
        expect(answer.status).toBe(403);
        expect(answer.body.data ?? null).toBeNull();
        expect(answer.body.errors?.[0]?.extensions).toMatchObject({
          code: 'FORBIDDEN',
          status: 403,
          requiredScope: write.scope,
        });
        expect(answer.body.errors?.[0]?.message).toContain(`needs the ${write.scope} scope`);
        expect(await snapshot()).toEqual(before);

        const [method, path, body] = await write.rest();
        const restBefore = await snapshot();
        const refused =
          method === 'delete'
            ? await rest.delete(path, { key: keys[holder] })
            : await rest[method](path, body, { key: keys[holder] });
        expect(refused.status, refused.text).toBe(403);
        expect(refused.body).toMatchObject({ code: 'FORBIDDEN', status: 403 });
        expect(refused.body.message).toContain(`needs the ${write.scope} scope`);
        expect(await snapshot()).toEqual(restBefore);
      }
    });

    it(`${write.name} runs for a key with ${write.scope}, and for an admin key`, async () => {
      // Order writes act on orders their key placed: the admin test key placed these, so the orders key
      // gets its own.
      for (const holder of [write.scope as 'catalog' | 'orders', 'admin'] as const) {
        const key = keys[holder];
        const own = holder === 'orders' && write.scope === 'orders' && write.name !== 'placeOrder';
        const query = own
          ? (await write.graphql()).replace(
              /id: \d+/,
              `id: ${(await app.graphql(`mutation { placeOrder(input: { petId: ${pet.id} }) { id } }`, undefined, { key })).body.data.placeOrder.id}`,
            )
          : await write.graphql();
        const answer = await app.graphql(query, undefined, { key });
        expect(answer.body.errors, JSON.stringify(answer.body)).toBeUndefined();
        expect(answer.status).toBe(200);

        const [method, path, body] = await write.rest();
        const ownPath = own
          ? path.replace(
              /\d+$/,
              String((await rest.post('/store/orders', { petId: pet.id }, { key })).body.id),
            )
          : path;
        const done =
          method === 'delete'
            ? await rest.delete(ownPath, { key })
            : await rest[method](ownPath, body, { key });
        expect(done.status, done.text).toBeLessThan(300);
      }
    });
  }

  it('refuses a whole operation before any resolver runs: the allowed first field changes nothing', async () => {
    const before = await snapshot();
    const mixed = `mutation {
      placeOrder(input: { petId: ${pet.id} }) { id }
      createPet(input: { name: "Sneaky", categoryId: ${pet.categoryId} }) { id }
    }`;
    const answer = await app.graphql(mixed, undefined, { key: keys.orders });
    expect(answer.status).toBe(403);
    expect(answer.body.errors).toHaveLength(1);
    expect(answer.body.errors?.[0]?.extensions).toMatchObject({
      code: 'FORBIDDEN',
      requiredScope: 'catalog',
    });
    expect(await snapshot()).toEqual(before);

    // Through a fragment and an alias alike.
    const hidden = `mutation { ...W } fragment W on Mutation { ok: placeOrder(input: { petId: ${pet.id} }) { id } sneaky: deletePet(id: ${pet.id}) { id } }`;
    expect((await app.graphql(hidden, undefined, { key: keys.orders })).status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it('leaves anonymous callers reading only: writes 401, the key list 401', async () => {
    const before = await snapshot();
    const write = await app.graphql(`mutation { createCategory(input: { name: "X" }) { id } }`, undefined, {
      key: null,
    });
    expect(write.status).toBe(401);
    expect(write.body.errors?.[0]?.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
    const list = await app.graphql('{ apiKeys { id } }', undefined, { key: null });
    expect(list.status).toBe(401);
    expect(list.body.errors?.[0]?.extensions).toMatchObject({
      code: 'UNAUTHENTICATED',
      requiredScope: 'admin',
    });
    expect(
      (await app.graphql('{ pets(first: 1) { edges { node { id } } } }', undefined, { key: null })).status,
    ).toBe(200);
    expect(await snapshot()).toEqual(before);
  });
});

describe('viewer and apiKeys', () => {
  it('tell a key its plan and scopes, and an anonymous caller its', async () => {
    const mine = await app.graphql('{ viewer { apiKeyId plan scopes trustedDocuments } }', undefined, {
      key: keys.catalog,
    });
    expect(mine.body.data.viewer).toMatchObject({
      plan: 'business',
      scopes: ['read', 'catalog'],
      trustedDocuments: null,
    });
    const anonymous = await app.graphql('{ viewer { apiKeyId plan scopes } }', undefined, { key: null });
    expect(anonymous.body.data.viewer).toEqual({ apiKeyId: null, plan: 'free', scopes: ['read'] });
  });

  it('list the keys, without secrets, to admin keys only', async () => {
    const listed = await app.graphql('{ apiKeys { id prefix plan scopes revokedAt } }', undefined, {
      key: keys.admin,
    });
    expect(listed.status).toBe(200);
    const prefixes = listed.body.data.apiKeys.map((key: { prefix: string }) => key.prefix);
    expect(prefixes).toContain(keys.orders.slice(0, 10));
    expect(JSON.stringify(listed.body)).not.toContain(keys.orders);
    const refused = await app.graphql('{ apiKeys { id } }', undefined, { key: keys.catalog });
    expect(refused.status).toBe(403);
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', requiredScope: 'admin' });
  });
});

describe('orders', () => {
  it('are seen and changed only by the key that placed them, every one by admin keys, none anonymously', async () => {
    const other = await createTestKey(app.prisma, 'business', undefined, ['read', 'orders']);
    const placed = await app.graphql(
      `mutation { placeOrder(input: { petId: ${pet.id}, quantity: 2 }) { id } }`,
      undefined,
      { key: keys.orders },
    );
    const id = placed.body.data.placeOrder.id as number;
    const row = await app.prisma.order.findUniqueOrThrow({ where: { id: BigInt(id) } });
    expect(row.apiKeyId).not.toBeNull();

    const mine = await app.graphql(
      `{ order(id: ${id}) { id } orders(first: 100) { edges { node { id } } } }`,
      undefined,
      {
        key: keys.orders,
      },
    );
    expect(mine.body.data.order.id).toBe(id);
    expect(mine.body.data.orders.edges.map((e: { node: { id: number } }) => e.node.id)).toContain(id);
    expect((await rest.get(`/store/orders/${id}`, { key: keys.orders })).status).toBe(200);

    const before = await snapshot();
    for (const key of [other, null]) {
      const theirs = await app.graphql(`{ orders(first: 100) { edges { node { id } } } }`, undefined, {
        key,
      });
      expect(theirs.body.data.orders.edges.map((e: { node: { id: number } }) => e.node.id)).not.toContain(id);
      const one = await app.graphql(`{ order(id: ${id}) { id } }`, undefined, { key });
      expect(one.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
      expect((await rest.get(`/store/orders/${id}`, { key })).status).toBe(404);
      expect(
        (await rest.get('/store/orders?limit=100', { key })).body.map((o: { id: number }) => o.id),
      ).not.toContain(id);
    }
    const cancel = await app.graphql(`mutation { cancelOrder(id: ${id}) { id } }`, undefined, { key: other });
    expect(cancel.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
    const complete = await app.graphql(
      `mutation { updateOrder(id: ${id}, input: { complete: true }) { id } }`,
      undefined,
      { key: other },
    );
    expect(complete.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
    expect((await rest.delete(`/store/orders/${id}`, { key: other })).status).toBe(404);
    expect((await rest.patch(`/store/orders/${id}`, { complete: true }, { key: other })).status).toBe(404);
    expect(await snapshot()).toEqual(before);

    const admin = await app.graphql(`{ order(id: ${id}) { id } }`, undefined, { key: keys.admin });
    expect(admin.body.data.order.id).toBe(id);
    expect((await rest.delete(`/store/orders/${id}`, { key: keys.admin })).status).toBe(204);
  });

  it('placed before keys were recorded are seen by admin keys only', async () => {
    const legacy = await app.prisma.order.create({ data: { petId: BigInt(pet.id), quantity: 1 } });
    const id = Number(legacy.id);
    expect(
      (await app.graphql(`{ order(id: ${id}) { id } }`, undefined, { key: keys.orders })).body.errors?.[0]
        ?.extensions,
    ).toMatchObject({ code: 'NOT_FOUND' });
    expect(
      (await app.graphql(`{ order(id: ${id}) { id } }`, undefined, { key: keys.admin })).body.data.order.id,
    ).toBe(id);
  });
});
