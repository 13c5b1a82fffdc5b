import { afterAll, beforeAll, expect, it } from 'vitest';
import { BEYOND_2_53, startSeededTwins, type Twins } from './twins.ts';

const cursorOf = (text: string | bigint | number) =>
  Buffer.from(typeof text === 'string' ? text : `GPC:I:${text}`).toString('base64');

// What a string argument could carry to reach the SQL, were it ever written into it.
const SQL_LIKE = [
  "' OR 1=1 --",
  '1; DROP TABLE "Pet"; --',
  '1) UNION SELECT name FROM sqlite_master --',
  cursorOf('GPC:I:1 OR 1=1'),
  cursorOf('GPC:I:1\'; DROP TABLE "Pet"; --'),
  cursorOf('GPC:S:1'),
  cursorOf('GPC:I:99999999999999999999'),
  `${cursorOf(1)}'--`,
];

let twins: Twins;
let counts: () => Promise<number[]>;
beforeAll(async () => {
  twins = await startSeededTwins();
  const { prisma } = twins;
  counts = () =>
    Promise.all([
      prisma.pet.count(),
      prisma.category.count(),
      prisma.order.count(),
      prisma.inventoryItem.count(),
    ]);
}, 120_000);
afterAll(() => twins?.close());

/** Sends the request to both paths and expects one answer; `planned`: the planner answered it, in one statement. */
async function same(
  query: string,
  variables?: Record<string, unknown>,
  { planned = false, key = twins.keys.admin, json = true } = {},
) {
  const answers = await twins.graphql(query, variables, key);
  expect(answers.planned, `${query}\n${JSON.stringify(variables)}`).toEqual(answers.resolved);
  if (planned) {
    const { sql } = await twins.statementsOf(query, variables);
    expect(sql, query).toHaveLength(1);
    expect(sql[0]).toContain('AS "json"');
  }
  return json ? JSON.parse(answers.planned.body) : answers.planned.body;
}

const PAGE =
  'edges { cursor node { id name status } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';

it('aliases of one list field with different arguments, merged keys, fragments and __typename everywhere', async () => {
  await same(
    `{ a: pets(first: 2) { ${PAGE} } b: pets(last: 3, status: sold) { ${PAGE} } c: pets(ids: [3, 1, 2]) { ${PAGE} }
       d: categories(first: 1) { edges { node { id } } } e: inventory(status: pending) { edges { node { petId status } } }
       f: orders(complete: false, first: 4) { edges { node { id pet { name } } } } }`,
    undefined,
    { planned: true },
  );
  await same(
    `{ pets(first: 2) { edges { node { id } } } pets(first: 2) { edges { node { name } cursor } pageInfo { endCursor } } }`,
    undefined,
    { planned: true },
  );
  await same(
    `query { __typename pets(first: 3) { __typename ...Page edges { __typename node { __typename ...PetFields ... on Pet { category { __typename ...CategoryFields } } } } } }
     fragment Page on PetConnection { pageInfo { __typename hasNextPage ... on PageInfo { endCursor } } }
     fragment PetFields on Pet { id name inventory { __typename ...Stock } }
     fragment Stock on InventoryItem { quantity status }
     fragment CategoryFields on Category { name description }`,
    undefined,
    { planned: true },
  );
});

it('connections that read none of their rows (only pageInfo, only __typename), also of an empty category', async () => {
  for (const query of [
    '{ categories { edges { node { pets { pageInfo { hasNextPage } } } } } }',
    '{ categories { edges { node { pets { __typename } } } } }',
    '{ pets(categoryId: 5) { pageInfo { hasPreviousPage hasNextPage } } }',
    '{ pets(categoryId: 5) { pageInfo { startCursor endCursor } } }',
  ]) {
    await same(query, undefined, { planned: true });
  }
});

it('@include and @skip with variables: one document, each combination its own selection', async () => {
  const query = `query($a: Boolean!, $b: Boolean!) {
    pets(first: 3) { edges { node { id name @include(if: $a) category @skip(if: $b) { name } } } pageInfo @include(if: $b) { hasNextPage } }
    categories(first: 2) @skip(if: $a) { edges { cursor } } }`;
  for (const round of [1, 2]) {
    for (const a of [true, false]) {
      for (const b of [true, false]) {
        const body = await same(query, { a, b }, { planned: round === 2 });
        expect('name' in body.data.pets.edges[0].node).toBe(a);
        expect('categories' in body.data).toBe(!a);
      }
    }
  }
});

it('variables for every argument, empty pages, the last page and ids beyond 2^53', async () => {
  const lastPet = await twins.prisma.pet.findFirstOrThrow({ orderBy: { id: 'desc' } });
  const empty = await twins.prisma.category.findFirstOrThrow({ where: { pets: { none: {} } } });
  const pets = `query($first: Int, $last: Int, $after: String, $before: String, $status: PetStatus, $categoryId: Int64, $ids: [Int64!]) {
    pets(first: $first, last: $last, after: $after, before: $before, status: $status, categoryId: $categoryId, ids: $ids) { ${PAGE} } }`;
  const cases: [Record<string, unknown>, boolean][] = [
    [{ first: 5, status: 'available' }, true],
    [{ last: 5, before: cursorOf(40), status: 'pending' }, true],
    [{ first: 0 }, true],
    [{ last: 0 }, true],
    [{ categoryId: String(empty.id) }, true],
    [{ first: 10, after: cursorOf(lastPet.id) }, true],
    [{ last: 10, before: cursorOf(1) }, true],
    [{ ids: [] }, true],
    [{ ids: [String(BEYOND_2_53), String(BEYOND_2_53 + 2n), '1', '999999'] }, true],
    [{ categoryId: String(BEYOND_2_53) }, true],
    [{ first: 1, after: cursorOf(BEYOND_2_53) }, true],
    [{ last: 1, before: cursorOf(BEYOND_2_53 + 2n) }, true],
    // A cursor of a row that no longer exists: an empty page, as Prisma's cursor gives.
    [{ first: 3, after: cursorOf(999_999) }, true],
    // Refused as the resolvers refuse them: the planner hands these to them.
    [{ first: 101 }, false],
    [{ first: -1 }, false],
    [{ first: 2, last: 2 }, false],
    [{ first: 2, before: cursorOf(3) }, false],
    [{ last: 2, after: cursorOf(3) }, false],
    [{ after: cursorOf(3), before: cursorOf(9) }, false],
    [{ ids: Array.from({ length: 101 }, (_, i) => i + 1) }, false],
    [{ ids: [String(2n ** 63n)] }, false],
  ];
  for (const [variables, planned] of cases) await same(pets, variables, { planned });
  // Exact digits in the text (a test's JSON.parse would round them).
  const answer = await twins.graphql(pets, { ids: [String(BEYOND_2_53)] });
  expect(answer.planned.body).toContain(`"id":${BEYOND_2_53},`);
  expect(answer.planned.body).toContain(`"cursor":"${cursorOf(BEYOND_2_53)}"`);

  const orders = `query($petId: Int64, $complete: Boolean, $first: Int, $after: String) {
    orders(petId: $petId, complete: $complete, first: $first, after: $after) { ${PAGE.replace('name status', 'petId quantity shipDate complete pet { id }')} } }`;
  for (const key of [twins.keys.admin, twins.keys.own, null]) {
    for (const variables of [
      {},
      { petId: '3' },
      { complete: true },
      { petId: String(BEYOND_2_53) },
      { first: 2, after: cursorOf(4) },
    ]) {
      await same(orders, variables, { key: key as string });
    }
  }
  const inventory = `query($status: PetStatus, $last: Int) { inventory(status: $status, last: $last) { ${PAGE.replace('id name status', 'petId quantity status')} } }`;
  for (const status of ['available', 'pending', 'sold', null])
    await same(inventory, { status, last: 4 }, { planned: true });
});

it('SQL-looking strings in every string argument and in the data: never an injection, never a different answer', async () => {
  const before = await counts();
  const query = `query($after: String, $before: String, $status: PetStatus, $categoryId: Int64, $ids: [Int64!]) {
    pets(after: $after, status: $status, categoryId: $categoryId, ids: $ids) { ${PAGE} }
    back: pets(before: $before) { ${PAGE} } }`;
  for (const text of SQL_LIKE) {
    await same(query, { after: text });
    await same(query, { before: text });
    await same(query, { status: text });
    await same(query, { categoryId: text });
    await same(query, { ids: [text] });
    await same(`{ pets(after: ${JSON.stringify(text)}) { ${PAGE} } }`);
    await same(
      `{ categories(first: 2) { edges { node { pets(after: ${JSON.stringify(text)}) { ${PAGE} } } } } }`,
    );
    await same(`query($c: String) { orders(after: $c) { ${PAGE.replace('name status', 'quantity')} } }`, {
      c: text,
    });
  }
  // The pets whose names look like SQL are answered as any other name.
  const body = await same(`{ pets(first: 100) { edges { node { name } } } }`, undefined, { planned: true });
  expect(JSON.stringify(body)).toContain(`'); DROP TABLE \\"Pet\\"; --`);
  expect(await counts()).toEqual(before);
});

it('a directive it does not know, an unknown argument or field: the resolvers answer (or refuse) as before', async () => {
  await same(`{ pets(first: 1) @unknown { edges { node { id } } } }`);
  await same(`{ pets(first: 1) { edges { node { id ... @unknown { name } } } } }`);
  // @defer and @stream answer in parts, which the planner leaves to the resolvers: the same parts either way.
  await same(`{ pets(first: 1) { edges { node { id ... @defer { name } } } } }`, undefined, { json: false });
  await same(`{ pets(first: 2) { edges @stream(initialCount: 1) { node { id } } } }`, undefined, {
    json: false,
  });
  await same(`{ pets(first: 1, sort: "name") { edges { node { id } } } }`);
  await same(`{ pets(first: 1) { totalCount } }`);
  await same(`{ pets(first: 1) { edges { node { id } } } pet(id: 1) { name } }`);
  await same(`mutation { createCategory(input: { name: "x" }) { id } }`.replace('mutation', 'query'));
});
