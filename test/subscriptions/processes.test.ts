import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { REDIS_URL } from '../ratelimit/stores.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { type Subscription, subscribe } from '../support/event-stream.ts';
import { type GatewayProcess, startGatewayProcess } from '../support/gateway-process.ts';
import { createTestKey } from '../support/keys.ts';
import { overHttp, requestHelpers } from '../support/requests.ts';

// Two gateway processes on one PostgreSQL and one Redis: a change committed by either reaches the
// subscribers of both, each pet's changes in commit order; the cap on open subscriptions holds across both.

let database: TestDatabase;
let prisma: Db;
let apiKey: string;
let a: GatewayProcess;
let b: GatewayProcess;
const open: Subscription[] = [];
const prefix = `test-subs-${randomUUID()}`;

beforeAll(async () => {
  database = await createTestDatabase({}, 'postgresql');
  prisma = database.db.prisma;
  apiKey = await createTestKey(prisma, 'business');
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL,
    RATE_LIMIT_REDIS_PREFIX: prefix,
    SEED_DEMO_DATA: 'false',
    PLACE_ORDER_PER_MINUTE: '100000',
    SUBSCRIPTION_LEASE_SECONDS: '2',
    SHUTDOWN_DELAY_MS: '0',
    SHUTDOWN_TIMEOUT_MS: '30000',
    // Longer than any wait below: a connection left to its keep-alive timeout would show.
    HTTP_KEEP_ALIVE_TIMEOUT_MS: '20000',
  };
  [a, b] = await Promise.all([startGatewayProcess(env), startGatewayProcess(env)]);
});
afterAll(async () => {
  await Promise.all(open.map((stream) => stream.close()));
  await Promise.all([a?.cleanUp(), b?.cleanUp()]);
  await database?.drop();
});

async function watch(gateway: GatewayProcess, query: string, key = apiKey) {
  const stream = await subscribe(gateway.url, query, { key });
  open.push(stream);
  return stream;
}

/** A GraphQL request to `gateway` with the file's key; answers the response's body. */
const graphql = async (gateway: GatewayProcess, query: string, variables: Record<string, unknown> = {}) =>
  (await requestHelpers(overHttp(gateway.url), apiKey).graphql(query, variables)).body;

async function stocked(quantity: number): Promise<number> {
  const category = await prisma.category.create({ data: { name: `Processes ${randomUUID()}` } });
  const pet = await prisma.pet.create({
    data: { name: 'Shared', categoryId: category.id, inventory: { create: { quantity } } },
  });
  return Number(pet.id);
}

const inventoryOf = (petId: number) =>
  prisma.inventoryItem.findUniqueOrThrow({ where: { petId: BigInt(petId) } });

describe('subscriptions across two gateway processes with Redis', () => {
  it('see every committed change of concurrent writers on both, in commit order, and none that failed', async () => {
    const petId = await stocked(12);
    const { version: baseline } = await inventoryOf(petId);
    const onePet = await watch(a, `subscription { inventoryChanged(petId: ${petId}) { quantity version } }`);
    const allPets = await watch(b, 'subscription { inventoryChanged { petId quantity version } }');

    const place = `mutation($p: Int64!) { placeOrder(input: { petId: $p }) { id } }`;
    const gateways = [a, b];
    // 24 orders for 12 in stock, half on each gateway, all at once: 12 commit, 12 are refused.
    const placed = await Promise.all(
      Array.from({ length: 24 }, (_, i) => graphql(gateways[i % 2] as GatewayProcess, place, { p: petId })),
    );
    const orderIds = placed.filter((r) => r.data?.placeOrder).map((r) => r.data.placeOrder.id);
    expect(orderIds).toHaveLength(12);
    expect(placed.filter((r) => r.errors?.[0]?.extensions?.code === 'OUT_OF_STOCK')).toHaveLength(12);
    // Then cancels, completions and stock updates, interleaved on both.
    const mixed = await Promise.all(
      orderIds.map((id, i) => {
        const gateway = gateways[i % 2] as GatewayProcess;
        if (i % 3 === 0)
          return graphql(gateway, `mutation($id: Int64!) { cancelOrder(id: $id) { id } }`, { id });
        if (i % 3 === 1)
          return graphql(
            gateway,
            `mutation($id: Int64!) { updateOrder(id: $id, input: { complete: true }) { id } }`,
            {
              id,
            },
          );
        return graphql(
          gateway,
          `mutation($p: Int64!, $q: Int!) { updateInventory(petId: $p, input: { quantity: $q }) { quantity } }`,
          {
            p: petId,
            q: 100 + i,
          },
        );
      }),
    );
    expect(mixed.filter((r) => r.errors)).toEqual([]);

    const committed = 12 + orderIds.length;
    const final = await inventoryOf(petId);
    expect(final.version).toBe(baseline + committed);
    for (const stream of [onePet, allPets]) {
      const events = (await stream.nextCount(committed)).map((e) => e.data.inventoryChanged);
      expect(events.map((e) => e.version)).toEqual(
        Array.from({ length: committed }, (_, i) => baseline + 1 + i),
      );
      expect(events.at(-1).quantity).toBe(final.quantity);
      // The orders' part: each order took one from the stock before it.
      expect(events.slice(0, 12).map((e) => e.quantity)).toEqual(
        Array.from({ length: 12 }, (_, i) => 11 - i),
      );
    }
    // A repeat of the last change and an older one, as a process might publish late: never shown.
    const late = [committed, committed - 1].map((n) => ({
      kind: 'inventory',
      petId: String(petId),
      quantity: 999,
      openOrders: 0,
      deleted: false,
      version: baseline + n,
    }));
    const redis = new Redis(REDIS_URL);
    await redis.publish(`${prefix}:changes`, JSON.stringify(late));
    redis.disconnect();
    // Nothing more came: the next event is the next change.
    await graphql(
      b,
      `mutation($p: Int64!) { updateInventory(petId: $p, input: { quantity: 1 }) { quantity } }`,
      {
        p: petId,
      },
    );
    const [after] = (await onePet.nextCount(committed + 1)).slice(committed);
    expect(after.data.inventoryChanged).toEqual({ quantity: 1, version: baseline + committed + 1 });
  });

  it("cap a caller's open subscriptions over both processes, and a dead process's leases lapse", async () => {
    const free = await createTestKey(prisma, 'free');
    const petId = await stocked(1);
    const query = `subscription { inventoryChanged(petId: ${petId}) { quantity } }`;
    expect((await watch(a, query, free)).response.status).toBe(200);
    expect((await watch(b, query, free)).response.status).toBe(200);
    for (const gateway of [a, b]) {
      const refused = await watch(gateway, query, free);
      expect(refused.response.status).toBe(429);
      await refused.ended;
      expect(refused.next()[0].errors[0].extensions.code).toBe('TOO_MANY_SUBSCRIPTIONS');
    }
    // b dies holding a lease, which nobody renews: within SUBSCRIPTION_LEASE_SECONDS its place is free again.
    b.child.kill('SIGKILL');
    await b.exited;
    const diedAt = Date.now();
    let admitted: Subscription | undefined;
    while (!admitted) {
      const stream = await watch(a, query, free);
      if (stream.response.status === 200) admitted = stream;
      else if (Date.now() - diedAt > 10_000) throw new Error('the dead process’s lease did not lapse');
      else await sleep(250);
    }
    expect(Date.now() - diedAt).toBeLessThan(5_000);
  });

  it('end their streams as dropped connections when the gateway shuts down, without holding the shutdown', async () => {
    const petId = await stocked(1);
    const stream = await watch(a, `subscription { inventoryChanged(petId: ${petId}) { quantity } }`);
    await stream.until((events) => events.length > 0);
    const signalledAt = Date.now();
    a.child.kill('SIGTERM');
    await stream.ended;
    // No `complete`, which would tell a client that the subscription is over: it reconnects
    // (shutdown-reconnect.test.ts).
    expect(stream.events.map((e) => e.event)).not.toContain('complete');
    expect(await a.exited).toBe(0);
    // SHUTDOWN_TIMEOUT_MS is 30 s and the keep-alive timeout 20 s: neither the open stream nor its connection
    // made the gateway wait (nor the 4 s after which Node's fetch closes an idle connection by itself).
    expect(Date.now() - signalledAt).toBeLessThan(3_000);
  });
});
