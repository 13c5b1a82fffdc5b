import { describe, expect, it } from 'vitest';
import { type Answer, useTestApp } from '../support/app.ts';
import { createTestKey } from '../support/keys.ts';

// Quota integrity (issue 12, items 1 and 2): a request never gets back more than it paid, Remaining never leaves
// [0, limit], and an operation over a per-field limit is refused whole, before anything is written.
const PLACE_ORDER_LIMIT = 10;

const app = useTestApp({ env: { PLACE_ORDER_PER_MINUTE: String(PLACE_ORDER_LIMIT) } });

/** One operation's request body, or a batch's when given an array. */
const operations = (texts: string | string[]) =>
  Array.isArray(texts) ? texts.map((query) => ({ query })) : { query: texts };

const remainingOf = (answer: { headers: Headers }) => Number(answer.headers.get('x-ratelimit-remaining'));

/** `count` placeOrder fields under aliases o0, o1, …, each ordering one unit of `petId`. */
const orders = (petId: number, count: number) =>
  Array.from({ length: count }, (_, i) => `o${i}: placeOrder(input: { petId: ${petId} }) { id }`).join(' ');

async function petWithStock(quantity: number): Promise<number> {
  const pet = await app.createPet({ name: 'Stocked' });
  await app.ok(
    `mutation { updateInventory(petId: ${pet.id}, input: { quantity: ${quantity} }) { quantity } }`,
  );
  return pet.id;
}

async function stateOf(petId: number) {
  const orderCount = await app.prisma.order.count({ where: { petId: BigInt(petId) } });
  const { inventoryItem } = await app.ok(`{ inventoryItem(petId: ${petId}) { quantity } }`);
  return { orders: orderCount, stock: inventoryItem.quantity as number };
}

function expectFieldRefusal(answer: Answer) {
  expect(answer.status).toBe(429);
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(answer.body).toEqual({
    errors: [
      {
        message: expect.stringMatching(/placeOrder is limited to 10 calls/),
        extensions: { code: 'RATE_LIMITED', status: 429 },
      },
    ],
  });
}

describe('per-field limits count every alias, fragment and batch entry, up front', () => {
  it('refuses 15 aliased placeOrder fields whole: 429, no order, stock unchanged', async () => {
    const key = await createTestKey(app.prisma, 'business');
    const petId = await petWithStock(100);
    expectFieldRefusal(await app.postGraphQL(operations(`mutation { ${orders(petId, 15)} }`), { key: key }));
    expect(await stateOf(petId)).toEqual({ orders: 0, stock: 100 });
  });

  it('refuses 6 aliases when 5 calls are left, then admits 4 of the 5 left, all written', async () => {
    const key = await createTestKey(app.prisma, 'business');
    const petId = await petWithStock(100);
    const five = await app.postGraphQL(operations(`mutation { ${orders(petId, 5)} }`), { key: key });
    expect([five.status, Object.keys(five.body.data)]).toEqual([200, ['o0', 'o1', 'o2', 'o3', 'o4']]);

    const six = await app.postGraphQL(operations(`mutation { ${orders(petId, 6)} }`), { key: key });
    expectFieldRefusal(six);
    expect(await stateOf(petId)).toEqual({ orders: 5, stock: 95 });

    const four = await app.postGraphQL(operations(`mutation { ${orders(petId, 4)} }`), { key: key });
    expect(four.status).toBe(200);
    expect(four.body.errors).toBeUndefined();
    expect(Object.values(four.body.data).every((order) => (order as { id: number }).id > 0)).toBe(true);
    expect(await stateOf(petId)).toEqual({ orders: 9, stock: 91 });
  });

  it('counts placeOrder fields selected through named and inline fragments on Mutation', async () => {
    const key = await createTestKey(app.prisma, 'business');
    const petId = await petWithStock(100);
    const document = `mutation { ...Six ... on Mutation { ${orders(petId, 6).replaceAll('o', 'p')} } }
      fragment Six on Mutation { ${orders(petId, 6)} }`;
    expectFieldRefusal(await app.postGraphQL(operations(document), { key: key }));
    expect(await stateOf(petId)).toEqual({ orders: 0, stock: 100 });
  });

  it('counts fields as they execute: @skip and @include, one response key once, the selected operation only', async () => {
    const key = await createTestKey(app.prisma, 'business');
    const petId = await petWithStock(100);
    const skipped = (directive: string) => `s: placeOrder(input: { petId: ${petId} }) ${directive} { id }`;
    // 10 placeOrder fields: two do not run (@skip, @include), and o0 twice is one response key: 7 calls.
    const document = `mutation Place($no: Boolean!) {
      ${orders(petId, 7)} o0: placeOrder(input: { petId: ${petId} }) { id }
      ${skipped('@skip(if: true)')} t: placeOrder(input: { petId: ${petId} }) @include(if: $no) { id }
    }
    mutation Many { ${orders(petId, 15)} }`;
    const response = await app.postGraphQL(
      { query: document, operationName: 'Place', variables: { no: false } },
      { key },
    );
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.data)).toHaveLength(7);
    expect(await stateOf(petId)).toEqual({ orders: 7, stock: 93 });
    // 3 left: the selected operation's 4 calls do not fit, whatever the other operation holds.
    const four = await app.postGraphQL(operations(`mutation { ${orders(petId, 4)} }`), { key: key });
    expectFieldRefusal(four);
    expect(await stateOf(petId)).toEqual({ orders: 7, stock: 93 });
  });

  it('answers a batch with one admitted and one refused entry 200, the refusal in its entry', async () => {
    const key = await createTestKey(app.prisma, 'business');
    const petId = await petWithStock(100);
    const batch = await app.postGraphQL(
      operations([`mutation { ${orders(petId, 3)} }`, `mutation { ${orders(petId, 8)} }`]),
      { key: key },
    );
    expect(batch.status).toBe(200);
    expect(Object.keys(batch.body[0].data)).toEqual(['o0', 'o1', 'o2']);
    expect(batch.body[0].errors).toBeUndefined();
    expect(batch.body[1]).toEqual({
      errors: [
        {
          message: expect.stringMatching(/placeOrder is limited to 10 calls/),
          extensions: { code: 'RATE_LIMITED', status: 429 },
        },
      ],
    });
    expect(await stateOf(petId)).toEqual({ orders: 3, stock: 97 });
  });

  it('refuses over REST at the limit with 429, writing nothing', async () => {
    const key = await createTestKey(app.prisma, 'business');
    const petId = await petWithStock(100);
    expect(
      (await app.postGraphQL(operations(`mutation { ${orders(petId, PLACE_ORDER_LIMIT)} }`), { key: key }))
        .status,
    ).toBe(200);
    const refused = await app.post('/store/orders', { petId, quantity: 1 }, { key });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await stateOf(petId)).toEqual({ orders: PLACE_ORDER_LIMIT, stock: 100 - PLACE_ORDER_LIMIT });
  });
});

describe('refusals give back no more than was paid', () => {
  it('after 10 batched operations of 15 aliased placeOrder each, a Free key still has exactly 60 reads', async () => {
    const key = await createTestKey(app.prisma, 'free');
    const petId = await petWithStock(1000);
    const batch = await app.postGraphQL(operations(Array(10).fill(`mutation { ${orders(petId, 15)} }`)), {
      key: key,
    });
    // Every entry refused: the request as a whole is refused.
    expect(batch.status).toBe(429);
    expect(batch.body).toHaveLength(10);
    for (const entry of batch.body)
      expect(entry.errors[0].extensions).toEqual({ code: 'RATE_LIMITED', status: 429 });
    expect(remainingOf(batch)).toBe(60);
    expect((await stateOf(petId)).orders).toBe(0);

    const reads: Answer[] = [];
    for (let i = 0; i < 70; i++)
      reads.push(
        await app.postGraphQL(operations('{ categories(first: 1) { edges { node { id } } } }'), { key: key }),
      );
    expect(reads.filter((read) => read.status === 200)).toHaveLength(60);
    expect(reads.slice(60).every((read) => read.status === 429)).toBe(true);
    for (const answer of [batch, ...reads]) {
      expect(remainingOf(answer)).toBeGreaterThanOrEqual(0);
      expect(remainingOf(answer)).toBeLessThanOrEqual(60);
    }
  });
});
