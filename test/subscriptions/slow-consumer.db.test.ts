import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { type Subscription, subscribe } from '../support/event-stream.ts';
import { BULKY, flood, openStalledStream } from '../support/stalled-stream.ts';

// A subscriber that stops reading never reaches the write path (one process, SQLite and PostgreSQL; across
// processes: slow-consumer-processes.test.ts). Its stream holds at most its backlog, then ends SLOW_CONSUMER.

// A heartbeat (the time a slow consumer has to read its last event) longer than the test.
const app = useTestApp({ http: true, env: { SUBSCRIPTION_HEARTBEAT_MS: '120000' } });
const open: Subscription[] = [];
// Before the app closes (the hooks after the tests run last registered first).
afterAll(() => Promise.all(open.map((stream) => stream.close())));

describe('a subscriber that stops reading', () => {
  it('never fails or holds a write; its stream ends SLOW_CONSUMER and frees its place, and later subscribers get every change', async () => {
    const pet = await app.createPet({ name: `Flooded ${randomUUID().slice(0, 8)}` });
    const healthy = await subscribe(
      app.url,
      `subscription { inventoryChanged(petId: ${pet.id}) { quantity version } }`,
      { key: app.apiKey },
    );
    open.push(healthy);
    // Anonymous, as in the report: no key needed to watch stock.
    const stalled = await openStalledStream(app.url, BULKY(pet.id));
    expect(stalled.status).toBe(200);

    const requests = 12;
    for (let r = 0; r < requests; r++) {
      const keyed = r % 3 === 2;
      const response = await app.postGraphQL(flood(pet.id, r * 150 + 1), {
        headers: keyed ? { 'idempotency-key': randomUUID() } : {},
      });
      expect(response.status, response.text).toBe(200);
      const results = JSON.parse(response.text) as {
        data: Record<string, { quantity: number }>;
        errors?: unknown;
      }[];
      expect(results.every((result) => result.errors === undefined)).toBe(true);
      expect(results.at(-1)?.data.w14?.quantity).toBe(r * 150 + 150);
    }
    const changes = requests * 150;
    expect(
      (await app.prisma.inventoryItem.findUniqueOrThrow({ where: { petId: BigInt(pet.id) } })).quantity,
    ).toBe(changes);

    // The reading subscriber got every change, in order.
    const seen = (await healthy.nextCount(changes)).map((e) => e.data.inventoryChanged.version);
    expect(seen).toEqual(Array.from({ length: changes }, (_, i) => i + 1));

    // Its place among the address's open subscriptions (2 without a key) is free again.
    const others = [await subscribe(app.url, 'subscription { inventoryChanged { version } }')];
    others.push(await subscribe(app.url, 'subscription { inventoryChanged { version } }'));
    open.push(...others);
    expect(others.map((stream) => stream.response.status)).toEqual([200, 200]);

    // The stalled one, once it reads, finds its last event: SLOW_CONSUMER, then the end.
    const { events } = await stalled.resume();
    const nexts = events.filter((e) => e.event === 'next');
    expect(nexts.length).toBeLessThan(changes);
    expect(nexts.at(-1)?.data.errors[0]).toMatchObject({
      message: expect.stringMatching(/fell \d+ event\(s\) \(\d+ bytes\) behind.*subscribe again/),
      extensions: { code: 'SLOW_CONSUMER', status: 503 },
    });
    expect(events.at(-1)?.event).toBe('complete');
    const metrics = await (await fetch(`${app.url}/metrics`)).text();
    expect(metrics).toMatch(/^petstore_subscription_slow_consumers_total 1$/m);

    // A subscriber opened now gets every later change, in order.
    const later = await subscribe(
      app.url,
      `subscription { inventoryChanged(petId: ${pet.id}) { quantity version } }`,
      { key: app.apiKey },
    );
    open.push(later);
    for (let q = 1; q <= 20; q++) {
      await app.ok(`mutation { updateInventory(petId: ${pet.id}, input: { quantity: ${q} }) { quantity } }`);
    }
    expect((await later.nextCount(20)).map((e) => e.data.inventoryChanged.version)).toEqual(
      Array.from({ length: 20 }, (_, i) => changes + i + 1),
    );
  }, 120_000);
});
