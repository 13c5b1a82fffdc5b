import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageOf } from '../../src/contract/errors.ts';
import { SUBGRAPH_SCHEMA_FILE } from '../../src/graphql/print.ts';
import { buildSchema } from '../../src/graphql/schema.ts';
import { setKeyPowers } from '../../src/keys/repository.ts';
import { startTestApp, useTestApp } from '../support/app.ts';
import { createTestKey } from '../support/keys.ts';
import { REVIEWS_SDL, type Review, startReviewsSubgraph } from '../support/reviews-subgraph.ts';
import {
  composeSupergraph,
  PETSTORE,
  type Router,
  startApolloRouter,
  startHiveRouter,
} from '../support/routers.ts';

// The gateway as a federation subgraph (FEDERATION=on, docs/federation.md): its `_service` and `_entities`
// asked directly, as a router asks them, then a supergraph of it and a reviews subgraph built with
// @apollo/subgraph, composed by @theguild/federation-composition and served by Hive Gateway and by Apollo
// Gateway, with queries that cross both subgraphs.

// Apollo Gateway would otherwise look up cloud metadata hosts and report usage.
process.env.APOLLO_TELEMETRY_DISABLED = 'true';

let statements: string[] = [];
const app = useTestApp({
  http: true,
  // A minute window longer than the test: the quota it reads cannot start over in between.
  env: { FEDERATION: 'on', RATE_LIMIT_MINUTE_SECONDS: '3600' },
  onQuery: (sql) => statements.push(sql),
});
const keys = { userA: '', userB: '', router: '', requireDocuments: '' };
const pets = { rex: 0, tom: 0, fido: 0, quiet: 0 };
const categories = { dogs: 0, cats: 0 };
const orders = { ofA: 0, ofB: 0 };
let reviewsSubgraph: Awaited<ReturnType<typeof startReviewsSubgraph>>;
let supergraph: string;

beforeAll(async () => {
  keys.userA = await createTestKey(app.prisma, 'business', undefined, ['read', 'orders']);
  keys.userB = await createTestKey(app.prisma, 'business', undefined, ['read', 'orders']);
  keys.router = await createTestKey(app.prisma, 'business', undefined, ['read']);
  keys.requireDocuments = await createTestKey(app.prisma, 'business', undefined, ['read', 'orders']);
  const row = await app.prisma.apiKey.findFirstOrThrow({
    where: { prefix: keys.requireDocuments.slice(0, 10) },
  });
  await setKeyPowers(app.prisma, row.id, { trustedDocuments: 'require' });

  for (const name of ['Dogs', 'Cats'] as const) {
    const { createCategory } = await app.ok(`mutation { createCategory(input: { name: "${name}" }) { id } }`);
    categories[name === 'Dogs' ? 'dogs' : 'cats'] = createCategory.id;
  }
  pets.rex = (await app.createPet({ name: 'Rex', categoryId: categories.dogs })).id;
  pets.tom = (await app.createPet({ name: 'Tom', categoryId: categories.cats })).id;
  pets.fido = (await app.createPet({ name: 'Fido', categoryId: categories.dogs })).id;
  pets.quiet = (await app.createPet({ name: 'Quiet', categoryId: categories.cats })).id;
  for (const id of [pets.rex, pets.tom]) {
    await app.ok(`mutation { updateInventory(petId: ${id}, input: { quantity: 10 }) { quantity } }`);
  }
  orders.ofA = await placeOrder(keys.userA, pets.rex, 1);
  orders.ofB = await placeOrder(keys.userB, pets.tom, 2);

  const reviews: Review[] = [
    { id: 'r1', stars: 5, body: 'Loyal', petId: pets.rex, orderId: orders.ofA },
    { id: 'r2', stars: 4, body: 'Aloof', petId: pets.tom, orderId: orders.ofB },
    { id: 'r3', stars: 3, body: 'Loud', petId: pets.rex },
    { id: 'r4', stars: 5, body: 'Fetches', petId: pets.fido },
  ];
  reviewsSubgraph = await startReviewsSubgraph(reviews);
  // The gateway's SDL as composition tools read it: from the running service.
  const { _service } = await app.ok('{ _service { sdl } }');
  supergraph = composeSupergraph([
    { name: PETSTORE, url: `${app.url}/graphql`, sdl: _service.sdl },
    { name: 'reviews', url: reviewsSubgraph.url, sdl: REVIEWS_SDL },
  ]);
}, 120_000);
afterAll(() => reviewsSubgraph?.close());

async function placeOrder(key: string, petId: number, quantity: number): Promise<number> {
  const { body } = await app.graphql(
    `mutation { placeOrder(input: { petId: ${petId}, quantity: ${quantity} }) { id } }`,
    undefined,
    { key },
  );
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data.placeOrder.id;
}

/** The statements that read a table, since the last reset (the key lookup and usage counts aside). */
const statementsOn = (table: string) =>
  statements.filter((sql) => new RegExp(`FROM\\s+\\S*\\b${table}\\b\\S*\\s`, 'i').test(sql));

const ENTITIES = `query($representations: [_Any!]!) {
  _entities(representations: $representations) {
    __typename
    ... on Pet { id name }
    ... on Category { id name }
    ... on Order { id quantity petId }
  }
}`;

describe('the subgraph, asked as a router asks', () => {
  it('answers _service { sdl }: subgraph.graphql, with the three entities keyed by id', async () => {
    const { _service } = await app.ok('{ _service { sdl } }');
    expect(`${_service.sdl}\n`).toBe(readFileSync(SUBGRAPH_SCHEMA_FILE, 'utf8'));
    for (const type of ['Pet', 'Category', 'Order']) {
      expect(_service.sdl).toContain(`type ${type}\n  @key(fields: "id")`);
    }
  });

  it('has neither _service nor _entities when FEDERATION is off (the default): VALIDATION_FAILED', async () => {
    const fields = buildSchema().getQueryType()?.getFields() ?? {};
    expect(Object.keys(fields)).not.toContain('_service');
    expect(Object.keys(fields)).not.toContain('_entities');
    const plain = await startTestApp();
    try {
      for (const [query, message] of [
        ['{ _service { sdl } }', 'Cannot query field "_service" on type "Query".'],
        [
          '{ _entities(representations: []) { __typename } }',
          'Cannot query field "_entities" on type "Query".',
        ],
        [ENTITIES, 'Unknown type "_Any".'],
      ] as const) {
        const { status, body } = await plain.graphql(query, { representations: [] });
        // A validation error, answered 200 to a client that accepts application/json (GraphQL over HTTP).
        expect(status).toBe(200);
        expect(body.data).toBeUndefined();
        expect(body.errors?.[0]).toMatchObject({
          message,
          extensions: { code: 'VALIDATION_FAILED', status: 400 },
        });
      }
    } finally {
      await plain.close();
    }
  });

  it('reads the entities of one request in one statement per type, in order; NOT_FOUND for an id that is not there', async () => {
    const representations = [
      { __typename: 'Pet', id: pets.rex },
      { __typename: 'Category', id: categories.cats },
      // An id as a string of digits, as a router passes on an Int64 beyond 2^53.
      { __typename: 'Pet', id: String(pets.tom) },
      { __typename: 'Pet', id: 999_999 },
      { __typename: 'Category', id: categories.dogs },
      { __typename: 'Pet', id: pets.rex },
    ];
    // Twice: an entity lookup's answer depends on the caller's key, so it is read again, never kept.
    for (let round = 0; round < 2; round++) {
      statements = [];
      const { status, body } = await app.graphql(ENTITIES, { representations });
      expect(status).toBe(200);
      expect(body.errors).toEqual([
        {
          message: 'Pet 999999 does not exist',
          locations: [{ line: 2, column: 3 }],
          path: ['_entities', 3],
          extensions: { code: 'NOT_FOUND', status: 404 },
        },
      ]);
      expect(body.data._entities).toEqual([
        { __typename: 'Pet', id: pets.rex, name: 'Rex' },
        { __typename: 'Category', id: categories.cats, name: 'Cats' },
        { __typename: 'Pet', id: pets.tom, name: 'Tom' },
        null,
        { __typename: 'Category', id: categories.dogs, name: 'Dogs' },
        { __typename: 'Pet', id: pets.rex, name: 'Rex' },
      ]);
      expect(statementsOn('Pet')).toHaveLength(1);
      expect(statementsOn('Category')).toHaveLength(1);
    }
  });

  it('reads the relations an entity selection asks for with it: one statement for the pets, one for their categories', async () => {
    statements = [];
    const data = await app.ok(
      `query($representations: [_Any!]!) {
        _entities(representations: $representations) { ... on Pet { name category { name } inventory { quantity } } }
      }`,
      { representations: [pets.rex, pets.tom, pets.fido].map((id) => ({ __typename: 'Pet', id })) },
    );
    expect(data._entities).toEqual([
      { name: 'Rex', category: { name: 'Dogs' }, inventory: { quantity: 9 } },
      { name: 'Tom', category: { name: 'Cats' }, inventory: { quantity: 8 } },
      { name: 'Fido', category: { name: 'Dogs' }, inventory: { quantity: 0 } },
    ]);
    expect(statementsOn('Pet')).toHaveLength(1);
    expect(statementsOn('Category')).toHaveLength(1);
  });

  it('finds orders by the rule of order(id): a key its own, an admin key all, no key none; NOT_FOUND for the others', async () => {
    const representations = [orders.ofA, orders.ofB].map((id) => ({ __typename: 'Order', id }));
    const asUser = async (key: string | null) => {
      const { body } = await app.graphql(ENTITIES, { representations }, { key });
      // The same answer as for an order that does not exist: nothing tells which ids do.
      const refused = (body.errors ?? []).map((error) => {
        expect(error.extensions).toEqual({ code: 'NOT_FOUND', status: 404 });
        return error.message;
      });
      return { entities: body.data._entities, refused };
    };
    const ofA = { __typename: 'Order', id: orders.ofA, quantity: 1, petId: pets.rex };
    const ofB = { __typename: 'Order', id: orders.ofB, quantity: 2, petId: pets.tom };
    const missing = (id: number) => `Order ${id} does not exist`;
    expect(await asUser(keys.userA)).toEqual({ entities: [ofA, null], refused: [missing(orders.ofB)] });
    expect(await asUser(keys.userB)).toEqual({ entities: [null, ofB], refused: [missing(orders.ofA)] });
    // The test app's own key has the admin scope.
    expect(await asUser(app.apiKey)).toEqual({ entities: [ofA, ofB], refused: [] });
    expect(await asUser(null)).toEqual({
      entities: [null, null],
      refused: [missing(orders.ofA), missing(orders.ofB)],
    });
    // One statement for a key's orders, whatever their number.
    statements = [];
    await asUser(keys.userA);
    expect(statementsOn('Order')).toHaveLength(1);
  });

  it('refuses a representation whose id is no Int64, alone: VALIDATION_FAILED at its place, the others answered', async () => {
    for (const id of ['abc', '01', 1.5, null, { id: 1 }, '9223372036854775808']) {
      const { status, body } = await app.graphql(ENTITIES, {
        representations: [
          { __typename: 'Pet', id: pets.rex },
          { __typename: 'Pet', id },
        ],
      });
      expect(status, JSON.stringify(id)).toBe(200);
      expect(body.data._entities).toEqual([{ __typename: 'Pet', id: pets.rex, name: 'Rex' }, null]);
      expect(body.errors).toHaveLength(1);
      expect(body.errors?.[0]).toMatchObject({
        path: ['_entities', 1],
        message: messageOf('representationIdInvalid', { typeName: 'Pet', got: JSON.stringify(id) }),
        extensions: { code: 'VALIDATION_FAILED', status: 400 },
      });
    }
  });

  it('refuses, whole and before it runs, a representation that names no entity of the subgraph: VALIDATION_FAILED', async () => {
    for (const [bad, got] of [
      [{ __typename: 'Review', id: 1 }, '"Review"'],
      [{ __typename: 'Query' }, '"Query"'],
      [{ __typename: '_Service' }, '"_Service"'],
      [{ __typename: 'pet', id: 1 }, '"pet"'],
      [{ id: 1 }, 'none'],
      [{ __typename: 7 }, '7'],
      ['Pet', 'no object'],
      [[{ __typename: 'Pet', id: 1 }], 'none'],
    ] as const) {
      statements = [];
      const { status, body } = await app.graphql(ENTITIES, {
        representations: [{ __typename: 'Pet', id: pets.rex }, bad],
      });
      expect(status, JSON.stringify(bad)).toBe(400);
      expect(body).toEqual({
        errors: [
          {
            message: messageOf('representationNotEntity', {
              index: 1,
              entities: ['Category', 'Order', 'Pet'],
              got,
            }),
            extensions: { code: 'VALIDATION_FAILED', status: 400 },
          },
        ],
      });
      expect(statementsOn('Pet')).toEqual([]);
    }
  });
});

describe.each([
  ['Hive Gateway', startHiveRouter],
  ['Apollo Gateway', startApolloRouter],
] as const)('through %s', (_name, start) => {
  let router: Router;
  beforeAll(async () => {
    router = await start(supergraph, keys.router);
  });
  afterAll(() => router?.close());

  it('reviews -> pet -> category: the pets of all reviews in one entity fetch, one statement per type', async () => {
    statements = [];
    const { data, errors } = await router.query(
      '{ reviews { id stars pet { name category { name } } } }',
      keys.userA,
    );
    expect(errors).toBeUndefined();
    expect(data.reviews).toEqual([
      { id: 'r1', stars: 5, pet: { name: 'Rex', category: { name: 'Dogs' } } },
      { id: 'r2', stars: 4, pet: { name: 'Tom', category: { name: 'Cats' } } },
      { id: 'r3', stars: 3, pet: { name: 'Rex', category: { name: 'Dogs' } } },
      { id: 'r4', stars: 5, pet: { name: 'Fido', category: { name: 'Dogs' } } },
    ]);
    expect(statementsOn('Pet')).toHaveLength(1);
    expect(statementsOn('Category')).toHaveLength(1);
  });

  it('pets -> reviews: a page of the gateway with what the reviews subgraph adds to each pet', async () => {
    const { data, errors } = await router.query(
      '{ pets(first: 4) { edges { node { name reviews { id body } } } } }',
      keys.userA,
    );
    expect(errors).toBeUndefined();
    expect(data.pets.edges.map(({ node }: { node: unknown }) => node)).toEqual([
      {
        name: 'Rex',
        reviews: [
          { id: 'r1', body: 'Loyal' },
          { id: 'r3', body: 'Loud' },
        ],
      },
      { name: 'Tom', reviews: [{ id: 'r2', body: 'Aloof' }] },
      { name: 'Fido', reviews: [{ id: 'r4', body: 'Fetches' }] },
      { name: 'Quiet', reviews: [] },
    ]);
  });

  it("forwards the end user's key: each sees the orders it placed, an admin all, a user without a key none", async () => {
    const ordersOf = async (key?: string) => {
      const { data, errors } = await router.query('{ reviews { id order { id quantity } } }', key);
      // An order the user may not see is null, with the gateway's NOT_FOUND passed on as the router words it.
      for (const error of errors ?? []) expect(error.message).toMatch(/Order \d+ does not exist/);
      return data.reviews.map((review: { order: { id: number } | null }) => review.order?.id ?? null);
    };
    expect(await ordersOf(keys.userA)).toEqual([orders.ofA, null, null, null]);
    expect(await ordersOf(keys.userB)).toEqual([null, orders.ofB, null, null]);
    expect(await ordersOf(app.apiKey)).toEqual([orders.ofA, orders.ofB, null, null]);
    // Without a key of the user's, the router's own key (read only, no orders) is sent.
    expect(await ordersOf()).toEqual([null, null, null, null]);
  });

  it('refuses, for a key in trusted-documents require mode, the text the router writes: DOCUMENT_NOT_TRUSTED', async () => {
    const { data, errors } = await router.query(
      '{ pets(first: 1) { edges { node { name } } } }',
      keys.requireDocuments,
    );
    expect(data?.pets ?? null).toBeNull();
    // Hive Gateway passes the gateway's error on with its code; Apollo Gateway wraps the 400 answer whole
    // ("400: Bad Request", the answer in extensions.response.body).
    expect(errors).toHaveLength(1);
    const passedOn = JSON.stringify(errors);
    expect(passedOn).toContain('"code":"DOCUMENT_NOT_TRUSTED"');
    expect(passedOn).toContain('This caller may run registered documents only');
  });
});

describe('counting through a router (Hive Gateway passing X-RateLimit-Remaining back)', () => {
  let router: Router;
  beforeAll(() => {
    router = startHiveRouter(supergraph, keys.router);
  });
  afterAll(() => router?.close());

  it("counts each fetch the router makes from the gateway on the end user's key, or on the router's without one", async () => {
    const onePetstoreFetch = '{ reviews { pet { name } } }';
    const first = await router.query(onePetstoreFetch, keys.userB);
    const second = await router.query(onePetstoreFetch, keys.userB);
    expect(first.remaining).toBeGreaterThan(0);
    expect(second.remaining).toBe((first.remaining ?? 0) - 1);
    // The user's own count, asked directly, has the same two requests and this one.
    const { body, headers } = await app.graphql('{ rateLimit { remaining } }', undefined, {
      key: keys.userB,
    });
    expect(Number(headers.get('x-ratelimit-remaining'))).toBe((second.remaining ?? 0) - 1);
    expect(body.data.rateLimit.remaining).toBe((second.remaining ?? 0) - 1);
    // Without a user's key, the router's key pays.
    const anonymous = await router.query(onePetstoreFetch);
    const { headers: routerHeaders } = await app.graphql('{ rateLimit { remaining } }', undefined, {
      key: keys.router,
    });
    expect(Number(routerHeaders.get('x-ratelimit-remaining'))).toBe((anonymous.remaining ?? 0) - 1);
  });
});
