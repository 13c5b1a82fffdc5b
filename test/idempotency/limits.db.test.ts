import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { createTestKey } from '../support/keys.ts';

// What an idempotency record keeps of an answer is bounded, per record and per API key: past a bound, the write
// stands and answers as usual, its record keeps the status and a digest, and a replay answers
// IDEMPOTENCY_ANSWER_NOT_KEPT instead of running it again.

const PER_KEY = 500; // about ten orders' answers

const app = useTestApp(); // the default limit of a record: 64 KiB

async function stocked(quantity: number) {
  const category = await app.prisma.category.create({ data: { name: `Limits ${randomUUID().slice(0, 8)}` } });
  return app.prisma.pet.create({
    data: { name: 'Kept', categoryId: category.id, inventory: { create: { quantity } } },
  });
}

const stockOf = async (petId: bigint, on = app) =>
  (await on.prisma.inventoryItem.findUniqueOrThrow({ where: { petId } })).quantity;
const ordersOf = (petId: bigint) => app.prisma.order.count({ where: { petId } });
const recordOf = (key: string) => app.prisma.idempotencyRecord.findFirstOrThrow({ where: { key } });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The schema, read as often as the alias limit allows: an answer of a few hundred KB. */
const INTROSPECTION = `{ ${Array.from(
  { length: 8 },
  (_, i) =>
    `s${i}: __schema { types { name description fields { name description args { name description } } } }`,
).join(' ')} }`;

describe('an idempotency record', () => {
  it('keeps the status and a digest of an answer over IDEMPOTENCY_MAX_RECORD_BYTES; its replay is 409 IDEMPOTENCY_ANSWER_NOT_KEPT', async () => {
    const pet = await stocked(5);
    const key = randomUUID();
    const batch = [
      { query: `mutation { placeOrder(input: { petId: ${pet.id}, quantity: 2 }) { id quantity } }` },
      { query: INTROSPECTION },
    ];
    const first = await app.post('/graphql', batch, { headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(200);
    expect(first.text.length).toBeGreaterThan(65_536);
    const [ordered, introspected] = JSON.parse(first.text);
    expect(ordered.data.placeOrder.quantity).toBe(2);
    expect(introspected.data.s7.types.length).toBeGreaterThan(10);

    const record = await recordOf(key);
    expect(record).toMatchObject({ status: 200, body: null, bodyBytes: 0, bodyDigest: sha256(first.text) });

    const repeat = await app.post('/graphql', batch, { headers: { 'Idempotency-Key': key } });
    expect(repeat.status).toBe(409);
    const [error] = JSON.parse(repeat.text).errors;
    expect(error.extensions).toEqual({ code: 'IDEMPOTENCY_ANSWER_NOT_KEPT', status: 409 });
    expect(error.message).toContain('ran and answered 200');
    expect(error.message).toContain(sha256(first.text));
    // Nothing ran again; another request with the key is still 422.
    expect(await ordersOf(pet.id)).toBe(1);
    expect(await stockOf(pet.id)).toBe(3);
    const other = await app.post('/graphql', batch.slice(0, 1), { headers: { 'Idempotency-Key': key } });
    expect(JSON.parse(other.text).errors[0].extensions.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await ordersOf(pet.id)).toBe(1);
  });

  it('keeps an answer within the limit whole, as before', async () => {
    const pet = await stocked(5);
    const key = randomUUID();
    const first = await app.post(
      '/store/orders',
      { petId: Number(pet.id) },
      { headers: { 'Idempotency-Key': key } },
    );
    expect(first.status).toBe(201);
    expect(await recordOf(key)).toMatchObject({
      body: first.text,
      bodyBytes: Buffer.byteLength(first.text),
      bodyDigest: null,
    });
    const repeat = await app.post(
      '/store/orders',
      { petId: Number(pet.id) },
      { headers: { 'Idempotency-Key': key } },
    );
    expect([repeat.status, repeat.text, repeat.headers.get('idempotent-replayed')]).toEqual([
      201,
      first.text,
      'true',
    ]);
  });
});

describe("an API key's idempotency records together", () => {
  const small = useTestApp({
    env: { IDEMPOTENCY_MAX_RECORD_BYTES: '200', IDEMPOTENCY_MAX_BYTES_PER_KEY: String(PER_KEY) },
  });

  it('keep at most IDEMPOTENCY_MAX_BYTES_PER_KEY of answers: past it, writes still run and replay 409, earlier ones whole', async () => {
    const key = await createTestKey(small.prisma, 'pro');
    const category = await small.prisma.category.create({ data: { name: 'Budget' } });
    const pet = await small.prisma.pet.create({
      data: { name: 'Budget', categoryId: category.id, inventory: { create: { quantity: 100 } } },
    });
    const order = (idempotencyKey: string) =>
      small.post(
        '/store/orders',
        { petId: Number(pet.id) },
        { key, headers: { 'idempotency-key': idempotencyKey } },
      );
    const keys = Array.from({ length: 30 }, (_, i) => `order-${i}`);
    const firsts = [];
    for (const idempotencyKey of keys) firsts.push(await order(idempotencyKey));
    expect(firsts.every((answer) => answer.status === 201)).toBe(true);
    expect(await small.prisma.order.count({ where: { petId: pet.id } })).toBe(30);

    const records = await small.prisma.idempotencyRecord.findMany({ where: { key: { in: keys } } });
    const kept = records.filter((record) => record.body !== null);
    const total = kept.reduce((sum, record) => sum + record.bodyBytes, 0);
    expect(total).toBeLessThanOrEqual(PER_KEY);
    expect(total).toBeGreaterThan(PER_KEY - 50); // filled to within one answer
    expect(kept.length).toBeLessThan(30);

    // Oldest first kept whole, nothing dropped: each key replays, whole or as the documented refusal.
    const byKey = new Map(records.map((record) => [record.key, record]));
    for (const [i, idempotencyKey] of keys.entries()) {
      const replay = await order(idempotencyKey);
      const record = byKey.get(idempotencyKey);
      if (record?.body !== null) expect([replay.status, replay.text]).toEqual([201, firsts[i]?.text]);
      else {
        expect(record.bodyDigest).toBe(sha256(firsts[i]?.text as string));
        expect(replay.status).toBe(409);
        expect(JSON.parse(replay.text).code).toBe('IDEMPOTENCY_ANSWER_NOT_KEPT');
      }
    }
    expect(byKey.get(keys[0] as string)?.body).not.toBeNull();
    expect(byKey.get(keys[29] as string)?.body).toBeNull();
    expect(await small.prisma.order.count({ where: { petId: pet.id } })).toBe(30);
    expect(await stockOf(pet.id, small)).toBe(70);
  });
});
