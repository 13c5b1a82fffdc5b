import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/keys/api-key.ts';
import { revokeApiKey, setKeyPowers } from '../../src/keys/repository.ts';
import { useTestApp } from '../support/app.ts';
import { type Subscription, subscribe } from '../support/event-stream.ts';
import { createTestKey } from '../support/keys.ts';

// A key revoked, or stripped of a scope a stream needs, ends that stream within the key cache time, with a last
// event carrying the Error object, as the key's requests are refused by then.

const KEY_CACHE_TTL_MS = 1000;
const app = useTestApp({ http: true, env: { API_KEY_CACHE_TTL_MS: String(KEY_CACHE_TTL_MS) } });
const open: Subscription[] = [];
// Before the app closes (the hooks after the tests run last registered first).
afterAll(() => Promise.all(open.map((stream) => stream.close())));

const idOf = async (key: string) =>
  (await app.prisma.apiKey.findUniqueOrThrow({ where: { hash: hashApiKey(key) } })).id;

async function watch(query: string, key: string) {
  const stream = await subscribe(app.url, query, { key });
  open.push(stream);
  expect(stream.response.status).toBe(200);
  return stream;
}

async function placeOrder(key: string) {
  const pet = await app.createPet({ name: `Watched ${randomUUID().slice(0, 8)}` });
  await app.ok(`mutation { updateInventory(petId: ${pet.id}, input: { quantity: 5 }) { quantity } }`);
  const placed = await app.graphql(
    `mutation { placeOrder(input: { petId: ${pet.id} }) { id } }`,
    {},
    { key },
  );
  expect(placed.body.errors, JSON.stringify(placed.body.errors)).toBeUndefined();
  return { petId: pet.id, orderId: placed.body.data.placeOrder.id as number };
}

/** The stream's last events once it has ended: the error it ended with, then complete. */
async function endedWith(stream: Subscription) {
  await stream.ended;
  const events = stream.events.filter((e) => e.event !== 'comment');
  expect(events.at(-1)?.event).toBe('complete');
  return events.at(-2)?.data.errors[0];
}

describe("a key's open subscriptions", () => {
  it('end UNAUTHENTICATED within the key cache time of its revocation', async () => {
    const key = await createTestKey(app.prisma, 'business', undefined, ['read', 'orders']);
    const { petId, orderId } = await placeOrder(key);
    const stock = await watch(`subscription { inventoryChanged(petId: ${petId}) { quantity } }`, key);
    const order = await watch(`subscription { orderChanged(id: ${orderId}) { id } }`, key);
    const everything = await watch('subscription { inventoryChanged { quantity } }', key);

    const revokedAt = Date.now();
    await revokeApiKey(app.prisma, await idOf(key));
    for (const stream of [stock, order, everything]) {
      expect(await endedWith(stream)).toMatchObject({
        message: expect.stringContaining('revoked'),
        extensions: { code: 'UNAUTHENTICATED', status: 401 },
      });
    }
    expect(Date.now() - revokedAt).toBeLessThan(KEY_CACHE_TTL_MS + 1000);
  });

  it('end FORBIDDEN when the key loses the admin scope that let it watch another key’s order; its own go on', async () => {
    const owner = await createTestKey(app.prisma, 'business', undefined, ['read', 'orders']);
    const admin = await createTestKey(app.prisma, 'business', undefined, ['read', 'orders', 'admin']);
    const { orderId } = await placeOrder(owner);
    const mine = await placeOrder(admin);
    const query = (id: number) => `subscription { orderChanged(id: ${id}) { id version } }`;
    const others = await watch(query(orderId), admin);
    const own = await watch(query(mine.orderId), admin);
    const owners = await watch(query(orderId), owner);

    await setKeyPowers(app.prisma, await idOf(admin), { scopes: ['read', 'orders'] });
    expect(await endedWith(others)).toMatchObject({
      message: expect.stringContaining('no longer has the scope admin'),
      extensions: { code: 'FORBIDDEN', status: 403 },
    });
    // The owner's stream of that order and the admin key's stream of its own order still get every change.
    await app.ok(`mutation { updateOrder(id: ${orderId}, input: { complete: true }) { id } }`);
    await app.ok(`mutation { updateOrder(id: ${mine.orderId}, input: { complete: true }) { id } }`);
    expect((await owners.nextCount(1))[0]).toEqual({ data: { orderChanged: { id: orderId, version: 1 } } });
    expect((await own.nextCount(1))[0]).toEqual({ data: { orderChanged: { id: mine.orderId, version: 1 } } });
    expect(owners.events.some((e) => e.event === 'complete')).toBe(false);
    expect(own.events.some((e) => e.event === 'complete')).toBe(false);
  });
});
