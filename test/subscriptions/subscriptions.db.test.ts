import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRateLimitConfig } from '../../src/config/rate-limits.ts';
import { parseApiKeyCommand, runApiKeyCommand } from '../../src/keys/commands.ts';
import { useTestApp } from '../support/app.ts';
import { type Subscription, subscribe } from '../support/event-stream.ts';
import { createTestKey } from '../support/keys.ts';

// Subscriptions over Server-Sent Events, end to end over HTTP, on SQLite and PostgreSQL (one process; across
// processes with Redis: processes.test.ts).

// Enterprise's configured cap is not the default one, so that a key following it is told from a constant.
const app = useTestApp({
  http: true,
  env: { SUBSCRIPTION_HEARTBEAT_MS: '50', MAX_SUBSCRIPTIONS: '{"enterprise":4}' },
});
const open: Subscription[] = [];
// Before the app closes (the hooks after the tests run last registered first).
afterAll(() => Promise.all(open.map((stream) => stream.close())));

async function watch(query: string, options: Parameters<typeof subscribe>[2] = {}) {
  const stream = await subscribe(app.url, query, { key: app.apiKey, ...options });
  open.push(stream);
  return stream;
}

const INVENTORY = `subscription($petId: Int64) {
  inventoryChanged(petId: $petId) { petId quantity status deleted version }
}`;

async function stocked(quantity: number) {
  const pet = await app.createPet({ name: `Stocked ${randomUUID().slice(0, 8)}` });
  await app.ok(
    `mutation($id: Int64!, $q: Int!) { updateInventory(petId: $id, input: { quantity: $q }) { quantity } }`,
    {
      id: pet.id,
      q: quantity,
    },
  );
  return pet;
}

const versionOf = async (petId: number) =>
  (await app.prisma.inventoryItem.findUniqueOrThrow({ where: { petId: BigInt(petId) } })).version;

/** Makes the database refuse inserts into IdempotencyRecord until dropped: a keyed write then rolls back. */
async function refuseIdempotencyRecords() {
  if (app.database.target.provider === 'sqlite') {
    await app.prisma.$executeRawUnsafe(
      `CREATE TRIGGER refuse_records BEFORE INSERT ON "IdempotencyRecord"
       BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
    );
    return { drop: () => app.prisma.$executeRawUnsafe('DROP TRIGGER refuse_records') };
  }
  const schema = app.database.target.schema;
  await app.prisma.$executeRawUnsafe(
    `CREATE FUNCTION "${schema}".refuse_records() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN RAISE EXCEPTION 'refused by the test'; END $$`,
  );
  await app.prisma.$executeRawUnsafe(
    `CREATE TRIGGER refuse_records BEFORE INSERT ON "${schema}"."IdempotencyRecord"
     FOR EACH ROW EXECUTE FUNCTION "${schema}".refuse_records()`,
  );
  return { drop: () => app.prisma.$executeRawUnsafe(`DROP FUNCTION "${schema}".refuse_records() CASCADE`) };
}

describe('inventoryChanged', () => {
  it("streams every committed change of a pet's stock in commit order, and none of a write that failed or rolled back", async () => {
    const pet = await stocked(2);
    const baseline = await versionOf(pet.id);
    const stream = await watch(INVENTORY, { variables: { petId: pet.id } });
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream');
    expect(stream.response.headers.get('x-ratelimit-remaining')).not.toBeNull();

    const order = (quantity: number, headers: Record<string, string> = {}) =>
      app.graphql(
        `mutation($petId: Int64!, $q: Int) { placeOrder(input: { petId: $petId, quantity: $q }) { id } }`,
        { petId: pet.id, q: quantity },
        { headers },
      );
    const first = await order(1);
    const second = await order(1);
    // Out of stock: refused, nothing committed.
    expect((await order(1)).body.errors?.[0]?.extensions?.code).toBe('OUT_OF_STOCK');
    // A keyed write whose transaction rolls back (its record cannot be written): the order was placed in it,
    // then undone.
    const refusal = await refuseIdempotencyRecords();
    try {
      await app.ok(
        `mutation($id: Int64!) { updateInventory(petId: $id, input: { quantity: 7 }) { quantity } }`,
        {
          id: pet.id,
        },
      );
      const undone = await order(1, { 'idempotency-key': randomUUID() });
      expect(undone.status).toBe(503);
    } finally {
      await refusal.drop();
    }
    const secondId = second.body.data.placeOrder.id;
    await app.ok(`mutation($id: Int64!) { updateOrder(id: $id, input: { complete: true }) { id } }`, {
      id: first.body.data.placeOrder.id,
    });
    await app.ok(`mutation($id: Int64!) { cancelOrder(id: $id) { id } }`, { id: secondId });
    await app.ok(
      `mutation($id: Int64!) { updateInventory(petId: $id, input: { quantity: 0 }) { quantity } }`,
      {
        id: pet.id,
      },
    );
    await app.ok(`mutation($id: Int64!) { deletePet(id: $id) { id } }`, { id: pet.id });

    const events = (await stream.nextCount(7)).map((e) => e.data.inventoryChanged);
    expect(events.map(({ quantity, status, deleted }) => [quantity, status, deleted])).toEqual([
      [1, 'available', false], // ordered 1
      [0, 'pending', false], // ordered 1
      [7, 'available', false], // stock set to 7 (the rolled-back order left no event)
      [7, 'available', false], // first order completed
      [8, 'available', false], // second order cancelled
      [0, 'sold', false], // stock set to 0
      [0, 'sold', true], // pet deleted
    ]);
    expect(events.map((e) => e.version)).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => baseline + n));
    expect(events.every((e) => e.petId === pet.id)).toBe(true);
    // The deletion was the pet's last event: the stream completes right after it.
    await stream.ended;
    expect(stream.events.filter((e) => e.event !== 'comment').map((e) => e.event)).toEqual([
      ...events.map(() => 'next'),
      'complete',
    ]);
  });

  it("without petId, streams every pet's changes, new pets included", async () => {
    const stream = await watch(INVENTORY);
    const pet = await app.createPet({ name: 'Newcomer' });
    await app.ok(
      `mutation($id: Int64!) { updateInventory(petId: $id, input: { quantity: 4 }) { quantity } }`,
      {
        id: pet.id,
      },
    );
    const events = (await stream.nextCount(2)).map((e) => e.data.inventoryChanged);
    expect(events).toEqual([
      { petId: pet.id, quantity: 0, status: 'sold', deleted: false, version: 0 },
      { petId: pet.id, quantity: 4, status: 'available', deleted: false, version: 1 },
    ]);
  });

  it('runs from a GET URL too, as a client without GraphQL would open it', async () => {
    const pet = await stocked(3);
    const stream = await watch(`subscription { inventoryChanged(petId: ${pet.id}) { quantity } }`, {
      method: 'GET',
    });
    expect(stream.response.status).toBe(200);
    await app.ok(
      `mutation($id: Int64!) { updateInventory(petId: $id, input: { quantity: 9 }) { quantity } }`,
      {
        id: pet.id,
      },
    );
    expect((await stream.nextCount(1))[0]).toEqual({ data: { inventoryChanged: { quantity: 9 } } });
  });

  it('answers NOT_FOUND for a pet that does not exist, and ends the stream', async () => {
    const stream = await watch(INVENTORY, { variables: { petId: 987654321 } });
    await stream.ended;
    const [answer] = stream.next();
    expect(answer.errors[0]).toMatchObject({
      message: 'Pet 987654321 does not exist',
      extensions: { code: 'NOT_FOUND', status: 404 },
    });
    expect(stream.events.at(-1)?.event).toBe('complete');
  });

  it('sends a heartbeat comment at the configured interval', async () => {
    const pet = await stocked(1);
    const stream = await watch(INVENTORY, { variables: { petId: pet.id } });
    await stream.until((events) => events.filter((e) => e.data === 'heartbeat').length >= 2);
  });
});

describe('orderChanged', () => {
  it('streams an order’s changes until it is cancelled', async () => {
    const pet = await stocked(5);
    const { placeOrder } = await app.ok(
      `mutation($p: Int64!) { placeOrder(input: { petId: $p, quantity: 2 }) { id } }`,
      {
        p: pet.id,
      },
    );
    const stream = await watch(
      `subscription($id: Int64!) { orderChanged(id: $id) { id petId quantity shipDate complete cancelled version } }`,
      { variables: { id: placeOrder.id } },
    );
    await app.ok(
      `mutation($id: Int64!) { updateOrder(id: $id, input: { shipDate: "2027-01-02T03:04:05Z" }) { id } }`,
      {
        id: placeOrder.id,
      },
    );
    await app.ok(`mutation($id: Int64!) { cancelOrder(id: $id) { id } }`, { id: placeOrder.id });
    const events = (await stream.nextCount(2)).map((e) => e.data.orderChanged);
    const order = { id: placeOrder.id, petId: pet.id, quantity: 2, complete: false };
    expect(events).toEqual([
      { ...order, shipDate: '2027-01-02T03:04:05.000Z', cancelled: false, version: 1 },
      { ...order, shipDate: '2027-01-02T03:04:05.000Z', cancelled: true, version: 2 },
    ]);
    // The cancellation was the order's last event: the stream completes right after it.
    await stream.ended;
    expect(stream.events.filter((e) => e.event !== 'comment').map((e) => e.event)).toEqual([
      'next',
      'next',
      'complete',
    ]);
  });

  it('stays open after an order is completed: its ship date can still change', async () => {
    const pet = await stocked(5);
    const { placeOrder } = await app.ok(`mutation($p: Int64!) { placeOrder(input: { petId: $p }) { id } }`, {
      p: pet.id,
    });
    const stream = await watch(`subscription($id: Int64!) { orderChanged(id: $id) { complete version } }`, {
      variables: { id: placeOrder.id },
    });
    await app.ok(`mutation($id: Int64!) { updateOrder(id: $id, input: { complete: true }) { id } }`, {
      id: placeOrder.id,
    });
    await app.ok(
      `mutation($id: Int64!) { updateOrder(id: $id, input: { shipDate: "2027-02-03T00:00:00Z" }) { id } }`,
      { id: placeOrder.id },
    );
    expect((await stream.nextCount(2)).map((e) => e.data.orderChanged)).toEqual([
      { complete: true, version: 1 },
      { complete: true, version: 2 },
    ]);
    expect(stream.events.some((e) => e.event === 'complete')).toBe(false);
  });

  it('lets a key watch only the orders it may read, as the order query does', async () => {
    const pet = await stocked(5);
    const ordersOnly = await createTestKey(app.prisma, 'business', undefined, ['read', 'orders']);
    const placed = await app.graphql(
      `mutation($p: Int64!) { placeOrder(input: { petId: $p }) { id } }`,
      { p: pet.id },
      {
        key: ordersOnly,
      },
    );
    const id = placed.body.data.placeOrder.id;
    const query = `subscription($id: Int64!) { orderChanged(id: $id) { id version } }`;
    // Another non-admin key, and a caller without a key: as if the order did not exist.
    const other = await createTestKey(app.prisma, 'business', undefined, ['read', 'orders']);
    for (const key of [other, undefined]) {
      const stream = await subscribe(app.url, query, { variables: { id }, key });
      open.push(stream);
      await stream.ended;
      expect(stream.next()[0].errors[0].extensions.code).toBe('NOT_FOUND');
    }
    // Its own key, and an admin key (the app's), watch it.
    const own = await watch(query, { variables: { id }, key: ordersOnly });
    const admin = await watch(query, { variables: { id } });
    await app.ok(`mutation($id: Int64!) { updateOrder(id: $id, input: { complete: true }) { id } }`, { id });
    for (const stream of [own, admin]) {
      expect((await stream.nextCount(1))[0].data.orderChanged).toEqual({ id, version: 1 });
    }
  });
});

describe('open subscriptions per caller', () => {
  it('are capped by plan: past the cap, 429 TOO_MANY_SUBSCRIPTIONS with the rate-limit headers, the request not counted', async () => {
    const free = await createTestKey(app.prisma, 'free');
    const pet = await stocked(1);
    const query = `subscription { inventoryChanged(petId: ${pet.id}) { quantity } }`;
    const first = await watch(query, { key: free });
    const second = await watch(query, { key: free });
    expect([first.response.status, second.response.status]).toEqual([200, 200]);
    const remaining = Number(second.response.headers.get('x-ratelimit-remaining'));

    const third = await watch(query, { key: free });
    expect(third.response.status).toBe(429);
    expect(Number(third.response.headers.get('x-ratelimit-remaining'))).toBe(remaining);
    expect(third.response.headers.get('x-ratelimit-limit')).toBe('60');
    await third.ended;
    expect(third.next()[0].errors[0]).toMatchObject({
      extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', status: 429 },
    });
    // Another key's subscriptions are its own.
    expect((await watch(query)).response.status).toBe(200);

    // A client that leaves frees its place.
    await first.close();
    const again = await subscribeWhenFree(query, free);
    expect(again.response.status).toBe(200);
  });
});

describe("an enterprise key's open subscriptions", () => {
  /** An enterprise key, issued as an operator would: `apikey create --plan enterprise ...`. */
  async function enterpriseKey(...options: string[]) {
    const argv = ['create', '--plan', 'enterprise', '--per-minute', '1000', '--per-day', '10000', ...options];
    const printed = await runApiKeyCommand(parseApiKeyCommand(argv), app.prisma, loadRateLimitConfig({}));
    return printed.at(-1) ?? '';
  }
  const capOf = async (key: string) =>
    (await app.graphql('{ viewer { maxSubscriptions } }', {}, { key })).body.data.viewer.maxSubscriptions;

  it("are capped by the key's own --max-subscriptions: past it, 429 TOO_MANY_SUBSCRIPTIONS, the open ones untouched", async () => {
    const one = await enterpriseKey('--max-subscriptions', '1');
    const three = await enterpriseKey('--max-subscriptions', '3');
    expect([await capOf(one), await capOf(three)]).toEqual([1, 3]);
    const pet = await stocked(5);
    const query = `subscription { inventoryChanged(petId: ${pet.id}) { quantity } }`;

    const only = await watch(query, { key: one });
    expect(only.response.status).toBe(200);
    const remaining = Number(only.response.headers.get('x-ratelimit-remaining'));
    const refused = await watch(query, { key: one });
    expect(refused.response.status).toBe(429);
    expect(Number(refused.response.headers.get('x-ratelimit-remaining'))).toBe(remaining);
    await refused.ended;
    expect(refused.next()[0].errors[0]).toMatchObject({
      message: expect.stringContaining('may keep 1 subscription(s) open'),
      extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', status: 429 },
    });

    const streams = [await watch(query, { key: three }), await watch(query, { key: three })];
    streams.push(await watch(query, { key: three }));
    expect(streams.map((stream) => stream.response.status)).toEqual([200, 200, 200]);
    const fourth = await watch(query, { key: three });
    expect(fourth.response.status).toBe(429);
    await fourth.ended;
    expect(fourth.next()[0].errors[0].extensions.code).toBe('TOO_MANY_SUBSCRIPTIONS');

    // The streams that were open still get every change.
    await app.ok(
      `mutation($id: Int64!) { updateInventory(petId: $id, input: { quantity: 6 }) { quantity } }`,
      {
        id: pet.id,
      },
    );
    for (const stream of [only, ...streams]) {
      expect((await stream.nextCount(1))[0].data.inventoryChanged.quantity).toBe(6);
    }
  });

  it('are capped by the configured Enterprise cap when created without --max-subscriptions', async () => {
    expect(await capOf(await enterpriseKey())).toBe(4);
    // Keys of the other plans see their plan's cap.
    expect(await capOf(await createTestKey(app.prisma, 'free'))).toBe(2);
  });
});

/** Opens a subscription once the server has noticed that an earlier one's client left (a lease is let go). */
async function subscribeWhenFree(query: string, key: string): Promise<Subscription> {
  for (let attempt = 0; ; attempt++) {
    const stream = await watch(query, { key });
    if (stream.response.status === 200 || attempt === 20) return stream;
    await stream.ended;
  }
}
