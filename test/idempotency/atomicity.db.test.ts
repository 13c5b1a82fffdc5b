import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectErrorObject, useRestClient } from '../rest/client.ts';
import { useTestApp } from '../support/app.ts';

// A keyed write and the record of its response commit in one transaction. These tests make the database refuse
// one statement of that transaction (with a trigger) and check that nothing of the request is kept, and that
// the client is told so and may retry with the same key.

const app = useTestApp();
const rest = useRestClient(app);

const NOTHING_KEPT =
  'The request could not be completed and nothing of it was kept: retry it with the same Idempotency-Key';

const keyed = (key: string) => ({ headers: { 'Idempotency-Key': key } });

/** Makes the database refuse inserts into `table` (those whose quantity is 13, for orders) until dropped. */
async function refuseInserts(table: 'IdempotencyRecord' | 'Order') {
  const when = table === 'Order' ? 'NEW.quantity = 13' : 'true';
  if (app.database.target.provider === 'sqlite') {
    await app.prisma.$executeRawUnsafe(
      `CREATE TRIGGER refuse_${table} BEFORE INSERT ON "${table}" WHEN ${when}
       BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
    );
    return { drop: () => app.prisma.$executeRawUnsafe(`DROP TRIGGER refuse_${table}`) };
  }
  const schema = app.database.target.schema;
  await app.prisma.$executeRawUnsafe(
    `CREATE FUNCTION "${schema}".refuse_${table}() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN IF ${when} THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`,
  );
  await app.prisma.$executeRawUnsafe(
    `CREATE TRIGGER refuse_${table} BEFORE INSERT ON "${schema}"."${table}"
     FOR EACH ROW EXECUTE FUNCTION "${schema}".refuse_${table}()`,
  );
  return {
    drop: () => app.prisma.$executeRawUnsafe(`DROP FUNCTION "${schema}".refuse_${table}() CASCADE`),
  };
}

async function stocked(quantity: number) {
  const pet = await app.createPet({ name: `Stocked ${randomUUID().slice(0, 8)}` });
  await app.prisma.inventoryItem.update({ where: { petId: BigInt(pet.id) }, data: { quantity } });
  return pet;
}

const stockOf = async (petId: number) =>
  (await app.prisma.inventoryItem.findUniqueOrThrow({ where: { petId: BigInt(petId) } })).quantity;
const ordersOf = (petId: number) => app.prisma.order.count({ where: { petId: BigInt(petId) } });

describe('a keyed write and the record of its response', () => {
  it('are kept together or not at all: a record that cannot be written undoes the order (503)', async () => {
    const pet = await stocked(5);
    const key = randomUUID();
    const refusal = await refuseInserts('IdempotencyRecord');
    try {
      const failed = await rest.post('/store/orders', { petId: pet.id }, keyed(key));
      expectErrorObject(failed, 'UNAVAILABLE', NOTHING_KEPT);
      expect(failed.headers.get('location')).toBeNull();
      expect(failed.headers.get('x-ratelimit-remaining')).not.toBeNull();
      const mutation = await app.graphql(
        `mutation { placeOrder(input: { petId: ${pet.id} }) { id } }`,
        undefined,
        { headers: { 'idempotency-key': key } },
      );
      expect(mutation.status).toBe(503);
      expect(mutation.body).toEqual({
        errors: [{ message: NOTHING_KEPT, extensions: { code: 'UNAVAILABLE', status: 503 } }],
      });
      expect(await ordersOf(pet.id)).toBe(0);
      expect(await stockOf(pet.id)).toBe(5);
    } finally {
      await refusal.drop();
    }
    const retried = await rest.post('/store/orders', { petId: pet.id }, keyed(key));
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await ordersOf(pet.id)).toBe(1);
    expect(await stockOf(pet.id)).toBe(4);
  });

  it('keep nothing of a GraphQL request with a server error beside its data, and say so (503)', async () => {
    const pet = await stocked(20);
    const twoOrders = `mutation {
      fine: placeOrder(input: { petId: ${pet.id}, quantity: 1 }) { id }
      broken: placeOrder(input: { petId: ${pet.id}, quantity: 13 }) { id }
    }`;
    const key = randomUUID();
    const refusal = await refuseInserts('Order');
    try {
      // Without a key, the first order stays: the response reports it beside the other's INTERNAL error.
      const unkeyed = await app.graphql(twoOrders);
      expect(unkeyed.body.data.fine.id).toBeDefined();
      expect(unkeyed.body.errors?.[0]?.extensions?.code).toBe('INTERNAL');
      expect(await ordersOf(pet.id)).toBe(1);

      for (let attempt = 0; attempt < 2; attempt++) {
        const keyedAnswer = await app.graphql(twoOrders, undefined, { headers: { 'idempotency-key': key } });
        expect(keyedAnswer.status).toBe(503);
        expect(keyedAnswer.body.errors?.[0]?.message).toBe(NOTHING_KEPT);
        expect(keyedAnswer.body.errors?.[0]?.extensions).toEqual({ code: 'UNAVAILABLE', status: 503 });
        // The same headers as an Error object's UNAVAILABLE: when to retry, and JSON.
        expect(keyedAnswer.headers.get('retry-after')).toBe('1');
        expect(keyedAnswer.headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(keyedAnswer.headers.get('idempotent-replayed')).toBeNull();
      }
      // REST runs one operation: its 500 already says it did nothing, and is not kept either.
      for (let attempt = 0; attempt < 2; attempt++) {
        const failed = await rest.post(
          '/store/orders',
          { petId: pet.id, quantity: 13 },
          keyed(`${key}-rest`),
        );
        expect(failed.status).toBe(500);
        expect(failed.body.code).toBe('INTERNAL');
        expect(failed.headers.get('idempotent-replayed')).toBeNull();
      }
      expect(await ordersOf(pet.id)).toBe(1);
      expect(await stockOf(pet.id)).toBe(19);
    } finally {
      await refusal.drop();
    }
    const retried = await app.graphql(twoOrders, undefined, { headers: { 'idempotency-key': key } });
    expect(retried.status).toBe(200);
    expect(retried.body.errors).toBeUndefined();
    expect(await ordersOf(pet.id)).toBe(3);
    expect(await stockOf(pet.id)).toBe(5);
  });
});
