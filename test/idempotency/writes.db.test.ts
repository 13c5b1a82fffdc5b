import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_RETENTION_MS as RETENTION_MS } from '../../src/contract/limits.ts';
import { fingerprint } from '../../src/idempotency/key.ts';
import { sweepExpiredRecords } from '../../src/idempotency/records.ts';
import { createRestClient, expectErrorObject, useRestClient } from '../rest/client.ts';
import { useTestApp } from '../support/app.ts';
import { createTestKey } from '../support/keys.ts';
import { slowUpload } from '../support/slow-upload.ts';

const START = Date.parse('2026-11-22T12:00:00Z');
let clock = START;

const app = useTestApp({ http: true, now: () => clock });
const rest = useRestClient(app);

const keyed = (key: string, extra: Record<string, string> = {}) => ({
  headers: { 'Idempotency-Key': key, ...extra },
});

/** A pet with `quantity` in stock. */
async function stocked(quantity: number) {
  const pet = await app.createPet({ name: `Stocked ${randomUUID().slice(0, 8)}` });
  expect((await rest.put(`/store/inventory/${pet.id}`, { quantity })).status).toBe(200);
  return pet;
}

const stockOf = async (petId: number) =>
  (await app.prisma.inventoryItem.findUniqueOrThrow({ where: { petId: BigInt(petId) } })).quantity;
const ordersOf = (petId: number) => app.prisma.order.count({ where: { petId: BigInt(petId) } });
const records = () => app.prisma.idempotencyRecord.count();

const PLACE_ORDER =
  'mutation($petId: Int64!, $n: Int) { placeOrder(input: { petId: $petId, quantity: $n }) { id quantity } }';

/** `repeat` is a replay: `status` and the first answer's `text` again, marked Idempotent-Replayed. */
function expectReplayed(
  repeat: { status: number; text: string; headers: Headers },
  status: number,
  text: string,
) {
  expect(repeat.status).toBe(status);
  expect(repeat.text).toBe(text);
  expect(repeat.headers.get('idempotent-replayed')).toBe('true');
}

describe('a REST write sent with an Idempotency-Key', () => {
  it('is replayed: same status, body and Location, marked Idempotent-Replayed, and ordered once', async () => {
    const pet = await stocked(5);
    const key = randomUUID();
    const first = await rest.post('/store/orders', { petId: pet.id, quantity: 2 }, keyed(key));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const repeat = await rest.post('/store/orders', { petId: pet.id, quantity: 2 }, keyed(key));
    expectReplayed(repeat, 201, first.text);
    expect(repeat.headers.get('location')).toBe(first.headers.get('location'));
    expect(repeat.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(await ordersOf(pet.id)).toBe(1);
    expect(await stockOf(pet.id)).toBe(3);
  });

  it('counts a replay against the rate limit, with the current rate-limit headers', async () => {
    const pet = await stocked(5);
    const key = randomUUID();
    const first = await rest.post('/store/orders', { petId: pet.id }, keyed(key));
    const repeat = await rest.post('/store/orders', { petId: pet.id }, keyed(key));
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(Number(repeat.headers.get('x-ratelimit-remaining'))).toBe(
      Number(first.headers.get('x-ratelimit-remaining')) - 1,
    );
  });

  it('replays a DELETE: 204 again, the order cancelled and its stock given back once', async () => {
    const pet = await stocked(5);
    const order = await rest.post('/store/orders', { petId: pet.id, quantity: 2 });
    const key = randomUUID();
    const first = await rest.delete(`/store/orders/${order.body.id}`, keyed(key));
    expect(first.status).toBe(204);
    const repeat = await rest.delete(`/store/orders/${order.body.id}`, keyed(key));
    expect(repeat.status).toBe(204);
    expect(repeat.text).toBe('');
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(await stockOf(pet.id)).toBe(5);
    // Without the key, a second cancellation is the missing order it is.
    expect((await rest.delete(`/store/orders/${order.body.id}`)).status).toBe(404);
  });

  it('replays the refusal of a store rule (OUT_OF_STOCK), even once the stock is back', async () => {
    const pet = await stocked(0);
    const key = randomUUID();
    const refused = await rest.post('/store/orders', { petId: pet.id }, keyed(key));
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('OUT_OF_STOCK');
    await rest.put(`/store/inventory/${pet.id}`, { quantity: 5 });
    const repeat = await rest.post('/store/orders', { petId: pet.id }, keyed(key));
    expectReplayed(repeat, 409, refused.text);
    expect(await ordersOf(pet.id)).toBe(0);
    expect(await stockOf(pet.id)).toBe(5);
  });

  it('refuses the same key with another body, path or method (422), writing nothing', async () => {
    const pet = await stocked(5);
    const key = randomUUID();
    await rest.post('/store/orders', { petId: pet.id, quantity: 1 }, keyed(key));
    const message =
      'Idempotency-Key was sent in the last 24 hours with another request (method, path or body): ' +
      'send a new key for a new request';
    const others = [
      await rest.post('/store/orders', { petId: pet.id, quantity: 2 }, keyed(key)),
      await rest.post('/store/orders', `{"quantity": 2, "petId": "${pet.id}"}`, keyed(key)),
      await rest.post('/store/orders', { petId: pet.id + 1, quantity: 1 }, keyed(key)),
      await rest.post('/pets', { name: 'Other', categoryId: pet.categoryId }, keyed(key)),
      await rest.put(`/store/inventory/${pet.id}`, { quantity: 1 }, keyed(key)),
    ];
    for (const other of others) expectErrorObject(other, 'IDEMPOTENCY_KEY_REUSED', message);
    expect(others[0]?.headers.get('x-ratelimit-remaining')).not.toBeNull();
    expect(await ordersOf(pet.id)).toBe(1);
    expect(await stockOf(pet.id)).toBe(4);
    expect(await app.prisma.pet.count({ where: { name: 'Other' } })).toBe(0);
  });

  it('replays a repeat that means the same: keys in another order, other spacing, an id as text', async () => {
    const pet = await stocked(5);
    const key = randomUUID();
    const first = await rest.post('/store/orders', { petId: pet.id, quantity: 1 }, keyed(key));
    expect(first.status).toBe(201);
    for (const body of [
      `{"quantity":1,"petId":${pet.id}}`,
      `{ "petId" : "${pet.id}",\n  "quantity": 1 }`,
      `{"quantity": 1.0, "petId": ${pet.id}}`,
    ]) {
      const repeat = await rest.post('/store/orders', body, keyed(key));
      expect([repeat.status, repeat.text]).toEqual([201, first.text]);
      expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    }
    expect(await ordersOf(pet.id)).toBe(1);
    expect(await stockOf(pet.id)).toBe(4);
  });

  it('replays a record written before meanings were compared, whose fingerprint is of the bytes', async () => {
    const pet = await stocked(5);
    const key = randomUUID();
    const body = `{"petId": ${pet.id}, "quantity": 1}`;
    const first = await rest.post('/store/orders', body, keyed(key));
    // As the version before kept it: the method, the target and the body's bytes.
    const bytes = fingerprint('POST /store/orders', body);
    await app.prisma.idempotencyRecord.updateMany({ where: { key }, data: { fingerprint: bytes } });
    const repeat = await rest.post('/store/orders', body, keyed(key));
    expect([repeat.status, repeat.text]).toEqual([201, first.text]);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(await ordersOf(pet.id)).toBe(1);
  });

  it('keeps the keys of different API keys apart', async () => {
    const pet = await stocked(5);
    const other = await createTestKey(app.prisma, 'pro');
    const key = randomUUID();
    const mine = await rest.post('/store/orders', { petId: pet.id }, keyed(key));
    const theirs = await rest.post('/store/orders', { petId: pet.id }, { ...keyed(key), key: other });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
    // Each API key's repeat is its own first response again.
    const myRepeat = await rest.post('/store/orders', { petId: pet.id }, keyed(key));
    const theirRepeat = await rest.post('/store/orders', { petId: pet.id }, { ...keyed(key), key: other });
    expect([myRepeat.text, theirRepeat.text]).toEqual([mine.text, theirs.text]);
    expect([myRepeat, theirRepeat].map((r) => r.headers.get('idempotent-replayed'))).toEqual([
      'true',
      'true',
    ]);
    expect(await ordersOf(pet.id)).toBe(2);
  });

  it('refuses a key that is empty, too long or not printable ASCII (400 naming the header), writing nothing', async () => {
    const pet = await stocked(5);
    const before = await records();
    // Every value an HTTP parser lets through that is not a key: control characters other than these (and DEL)
    // never reach the gateway.
    const cases = {
      empty: '',
      '256 characters': 'k'.repeat(256),
      'a tab': 'a\tb',
      'a C1 control character': 'a\x85b',
      'a Latin-1 letter': 'caf\xe9',
    };
    for (const [what, key] of Object.entries(cases)) {
      const restAnswer = await send('/store/orders', { petId: pet.id }, key);
      expect(restAnswer.status, what).toBe(400);
      expect(restAnswer.body.code, what).toBe('VALIDATION_FAILED');
      expect(restAnswer.body.message, what).toMatch(/^Idempotency-Key: /);
      const graphql = await send('/graphql', { query: PLACE_ORDER, variables: { petId: pet.id } }, key);
      expect(graphql.status, what).toBe(400);
      expect(graphql.body.errors[0].extensions.code, what).toBe('VALIDATION_FAILED');
      expect(graphql.body.errors[0].message, what).toMatch(/^Idempotency-Key: /);
    }
    expect(await ordersOf(pet.id)).toBe(0);
    expect(await records()).toBe(before);
    // The neighbours that are keys: 255 characters, spaces and symbols inside.
    for (const key of ['k'.repeat(255), `a key: ${randomUUID()} ~!`]) {
      expect((await rest.post('/store/orders', { petId: pet.id }, keyed(key))).status).toBe(201);
    }
  });

  it('does not keep a request refused before it ran: the key stays free for the corrected request', async () => {
    const pet = await stocked(5);
    const key = randomUUID();
    const invalid = await rest.post('/store/orders', { petId: pet.id, colour: 'red' }, keyed(key));
    expect(invalid.status).toBe(400);
    const unauthenticated = await rest.post('/store/orders', { petId: pet.id }, { ...keyed(key), key: null });
    expect(unauthenticated.status).toBe(401);
    const corrected = await rest.post('/store/orders', { petId: pet.id }, keyed(key));
    expect(corrected.status).toBe(201);
    expect(corrected.headers.get('idempotent-replayed')).toBeNull();
    // The key now belongs to the corrected request, which its repeat replays.
    const repeat = await rest.post('/store/orders', { petId: pet.id }, keyed(key));
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.text).toBe(corrected.text);
    expect(await ordersOf(pet.id)).toBe(1);
  });

  it('answers a repeat sent while the first still runs with 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    const pet = await stocked(5);
    const key = randomUUID();
    const body = JSON.stringify({ petId: pet.id });
    // The first request's body arrives in two parts: it runs until the second part is sent.
    const first = slowUpload(Number(new URL(app.url).port), {
      path: '/store/orders',
      body,
      headers: { 'x-api-key': app.apiKey, 'idempotency-key': key },
    });
    await first.inFlight;
    const repeat = await rest.post('/store/orders', { petId: pet.id }, keyed(key));
    expectErrorObject(
      repeat,
      'IDEMPOTENCY_KEY_IN_USE',
      'The first request with this Idempotency-Key is still running: retry once it has finished',
    );
    expect(await ordersOf(pet.id)).toBe(0);
    first.finish();
    expect((await first.response).status).toBe(201);
    const after = await rest.post('/store/orders', { petId: pet.id }, keyed(key));
    expect(after.headers.get('idempotent-replayed')).toBe('true');
    expect(await ordersOf(pet.id)).toBe(1);
  });

  it('runs one of many simultaneous requests with one key; the others are 409 or its replay', async () => {
    const pet = await stocked(50);
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => rest.post('/store/orders', { petId: pet.id }, keyed(key))),
    );
    const ran = answers.filter((a) => a.status === 201 && !a.headers.get('idempotent-replayed'));
    expect(ran).toHaveLength(1);
    for (const answer of answers) {
      if (answer.status === 201) expect(answer.text).toBe(ran[0]?.text);
      else expect(answer.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    }
    expect(await ordersOf(pet.id)).toBe(1);
    expect(await stockOf(pet.id)).toBe(49);
  });

  it('ignores the header on reads, whatever its value', async () => {
    const before = await records();
    for (const key of ['', 'k'.repeat(300), randomUUID()]) {
      const read = await rest.get('/pets?limit=1', keyed(key));
      expect(read.status).toBe(200);
      expect(read.headers.get('idempotent-replayed')).toBeNull();
    }
    expect(await records()).toBe(before);
  });
});

describe('a GraphQL mutation request sent with an Idempotency-Key', () => {
  it('is replayed: same status and body, marked Idempotent-Replayed, and ordered once', async () => {
    const pet = await stocked(5);
    const key = randomUUID();
    const body = { query: PLACE_ORDER, variables: { petId: pet.id, n: 2 } };
    const first = await app.postGraphQL(body, { headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(200);
    expect(JSON.parse(first.text).data.placeOrder.quantity).toBe(2);
    const repeat = await app.postGraphQL(body, { headers: { 'Idempotency-Key': key } });
    expectReplayed(repeat, 200, first.text);
    expect(repeat.headers.get('x-ratelimit-remaining')).not.toBeNull();
    expect(await ordersOf(pet.id)).toBe(1);
    expect(await stockOf(pet.id)).toBe(3);
  });

  it('replays a repeat that means the same: variables in another order or as text, the query respaced', async () => {
    const pet = await stocked(5);
    const key = randomUUID();
    const first = await app.postGraphQL(
      { query: PLACE_ORDER, variables: { petId: pet.id, n: 1 } },
      { headers: { 'Idempotency-Key': key } },
    );
    expect(JSON.parse(first.text).data.placeOrder.quantity).toBe(1);
    const respaced = PLACE_ORDER.replace(/\s+/g, '  ').replace('{ id quantity }', '{\n  id,\n  quantity\n}');
    for (const body of [
      { variables: { n: 1, petId: pet.id }, query: PLACE_ORDER },
      { query: PLACE_ORDER, variables: { n: 1, petId: String(pet.id) } },
      { query: respaced, variables: { petId: pet.id, n: 1 }, operationName: null },
    ]) {
      const repeat = await app.postGraphQL(body, { headers: { 'Idempotency-Key': key } });
      expect([repeat.status, repeat.text]).toEqual([200, first.text]);
      expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    }
    // What runs differently is another request.
    for (const body of [
      { query: PLACE_ORDER, variables: { petId: pet.id, n: 2 } },
      { query: PLACE_ORDER, variables: { petId: pet.id } },
      { query: PLACE_ORDER.replace('id quantity', 'quantity id'), variables: { petId: pet.id, n: 1 } },
      [{ query: PLACE_ORDER, variables: { petId: pet.id, n: 1 } }],
    ]) {
      const other = await app.postGraphQL(body, { headers: { 'Idempotency-Key': key } });
      expect(other.status).toBe(422);
      expect(JSON.parse(other.text).errors[0].extensions.code).toBe('IDEMPOTENCY_KEY_REUSED');
    }
    expect(await ordersOf(pet.id)).toBe(1);
    expect(await stockOf(pet.id)).toBe(4);
  });

  it('replays a batch whole, and refuses the key with another batch (422)', async () => {
    const pet = await stocked(5);
    const key = randomUUID();
    const batch = [
      { query: PLACE_ORDER, variables: { petId: pet.id, n: 1 } },
      { query: PLACE_ORDER, variables: { petId: pet.id, n: 2 } },
    ];
    const first = await app.postGraphQL(batch, { headers: { 'Idempotency-Key': key } });
    expect(JSON.parse(first.text)).toHaveLength(2);
    const repeat = await app.postGraphQL(batch, { headers: { 'Idempotency-Key': key } });
    expect(repeat.text).toBe(first.text);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    const other = await app.postGraphQL(batch.slice(0, 1), { headers: { 'Idempotency-Key': key } });
    expect(other.status).toBe(422);
    expect(JSON.parse(other.text).errors[0].extensions).toEqual({
      code: 'IDEMPOTENCY_KEY_REUSED',
      status: 422,
    });
    expect(await ordersOf(pet.id)).toBe(2);
    expect(await stockOf(pet.id)).toBe(2);
  });

  it('shares its keys with REST: a key used for a REST write is refused for a mutation (422)', async () => {
    const pet = await stocked(5);
    const key = randomUUID();
    await rest.post('/store/orders', { petId: pet.id }, keyed(key));
    const graphql = await app.postGraphQL(
      { query: PLACE_ORDER, variables: { petId: pet.id } },
      { headers: { 'Idempotency-Key': key } },
    );
    expect(graphql.status).toBe(422);
    expect(await ordersOf(pet.id)).toBe(1);
  });

  it('ignores the header on a query request', async () => {
    const before = await records();
    const read = await app.postGraphQL(
      { query: '{ categories { edges { node { id } } } }' },
      {
        headers: {
          'Idempotency-Key': 'k'.repeat(300),
        },
      },
    );
    expect(read.status).toBe(200);
    expect(await records()).toBe(before);
  });
});

describe('a keyed write refused by the rate limit', () => {
  const limited = useTestApp({ env: { PLACE_ORDER_PER_MINUTE: '1' } });

  it('is not kept: its retry is refused afresh, and its key stays free', async () => {
    const limitedRest = await createRestClient(limited);
    const pet = await limited.createPet({ name: 'Limited' });
    await limited.prisma.inventoryItem.update({ where: { petId: BigInt(pet.id) }, data: { quantity: 5 } });
    const [admitted, refused] = [randomUUID(), randomUUID()];
    expect((await limitedRest.post('/store/orders', { petId: pet.id }, keyed(admitted))).status).toBe(201);
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await limitedRest.post('/store/orders', { petId: pet.id }, keyed(refused));
      expect(answer.status).toBe(429);
      expect(answer.headers.get('retry-after')).not.toBeNull();
      expect(answer.headers.get('idempotent-replayed')).toBeNull();
    }
    const kept = await limited.prisma.idempotencyRecord.findMany();
    expect(kept.map(({ key }) => key)).toEqual([admitted]);
    expect(await limited.prisma.order.count()).toBe(1);
  });
});

describe('keys expire', () => {
  it('after 24 hours a repeat runs again, and the sweep deletes expired records only', async () => {
    const pet = await stocked(5);
    const [old, young] = [randomUUID(), randomUUID()];
    clock = START;
    await rest.post('/store/orders', { petId: pet.id }, keyed(old));
    clock = START + RETENTION_MS / 2;
    await rest.post('/store/orders', { petId: pet.id }, keyed(young));
    clock = START + RETENTION_MS - 1;
    const replayed = await rest.post('/store/orders', { petId: pet.id }, keyed(old));
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');

    clock = START + RETENTION_MS;
    const swept = await sweepExpiredRecords(app.prisma, new Date(clock));
    expect(swept).toBeGreaterThanOrEqual(1);
    const left = await app.prisma.idempotencyRecord.findMany({ where: { key: { in: [old, young] } } });
    expect(left.map((record) => record.key)).toEqual([young]);
    const again = await rest.post('/store/orders', { petId: pet.id }, keyed(old));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await ordersOf(pet.id)).toBe(3);
    clock = START;
  });
});

/** A POST with the app's API key and `key` as it is: node:http sends what fetch would refuse (a tab, Latin-1). */
function send(path: string, body: unknown, key: string) {
  // biome-ignore lint/suspicious/noExplicitAny: checked by assertions
  return new Promise<{ status: number; body: any }>((done, fail) => {
    const req = request(`${app.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': app.apiKey, 'idempotency-key': key },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => done({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', fail);
    req.end(JSON.stringify(body));
  });
}
