import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { REDIS_URL } from '../ratelimit/stores.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { subscribe } from '../support/event-stream.ts';
import { type GatewayProcess, startGatewayProcess } from '../support/gateway-process.ts';
import { createTestKey } from '../support/keys.ts';
import { BULKY, flood, openStalledStream } from '../support/stalled-stream.ts';

// A subscriber that stops reading, where changes cross processes: WORKERS=2 through the primary's relay (SQLite),
// and two gateway processes on Redis (PostgreSQL). No write fails, no process goes down.

const cleanUps: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanUp of cleanUps.reverse()) await cleanUp();
});

async function deployment(provider: 'sqlite' | 'postgresql', env: Record<string, string>) {
  const database: TestDatabase = await createTestDatabase({}, provider);
  cleanUps.push(() => database.drop());
  const apiKey = await createTestKey(database.db.prisma, 'business');
  const common = {
    DATABASE_URL: database.url,
    SEED_DEMO_DATA: 'false',
    PLACE_ORDER_PER_MINUTE: '100000',
    SUBSCRIPTION_HEARTBEAT_MS: '120000',
    ...env,
  };
  const gateways: GatewayProcess[] = [];
  for (let i = 0; i < (env.WORKERS ? 1 : 2); i++) {
    const gateway = await startGatewayProcess(common);
    cleanUps.push(() => gateway.cleanUp());
    gateways.push(gateway);
  }
  if (env.WORKERS) {
    const [gateway] = gateways as [GatewayProcess];
    await gateway.logLine(() => gateway.lines.filter((line) => line.msg === 'worker listening').length === 2);
  }
  const category = await database.db.prisma.category.create({ data: { name: `Slow ${randomUUID()}` } });
  const pet = await database.db.prisma.pet.create({
    data: { name: 'Flooded', categoryId: category.id, inventory: { create: { quantity: 0 } } },
  });
  return { gateways, apiKey, petId: Number(pet.id) };
}

async function floodThroughEveryProcess(
  gateways: GatewayProcess[],
  apiKey: string,
  petId: number,
  requests: number,
) {
  for (let r = 0; r < requests; r++) {
    const gateway = gateways[r % gateways.length] as GatewayProcess;
    const response = await fetch(`${gateway.url}/graphql`, {
      method: 'POST',
      // A new connection each: with WORKERS=2 the workers take turns.
      headers: {
        'content-type': 'application/json',
        'x-api-key': apiKey,
        connection: 'close',
        ...(r % 3 === 2 && { 'idempotency-key': randomUUID() }),
      },
      body: JSON.stringify(flood(petId, r * 150 + 1)),
    });
    const body = await response.text();
    expect(response.status, body).toBe(200);
    const results = JSON.parse(body) as { errors?: unknown }[];
    expect(
      results.every((result) => result.errors === undefined),
      body.slice(0, 500),
    ).toBe(true);
  }
}

describe.each([
  ['WORKERS=2 without Redis', 'sqlite' as const, { WORKERS: '2' }],
  [
    'two processes on Redis',
    'postgresql' as const,
    { REDIS_URL, RATE_LIMIT_REDIS_PREFIX: `test-slow-${randomUUID()}` },
  ],
])('a subscriber that stops reading, %s', (_name, provider, env) => {
  it('never fails a write or takes a process down; its stream ends SLOW_CONSUMER; others get every change', async () => {
    const { gateways, apiKey, petId } = await deployment(provider, env);
    const [first] = gateways as [GatewayProcess];
    const watch = `subscription { inventoryChanged(petId: ${petId}) { version } }`;
    const healthy = await subscribe(first.url, watch, { key: apiKey });
    const stalled = await openStalledStream(first.url, BULKY(petId));
    expect(stalled.status).toBe(200);

    const requests = 12;
    await floodThroughEveryProcess(gateways, apiKey, petId, requests);
    const changes = requests * 150;
    expect((await healthy.nextCount(changes)).map((e) => e.data.inventoryChanged.version)).toEqual(
      Array.from({ length: changes }, (_, i) => i + 1),
    );
    const { events } = await stalled.resume();
    expect(events.filter((e) => e.event === 'next').at(-1)?.data.errors[0].extensions).toEqual({
      code: 'SLOW_CONSUMER',
      status: 503,
    });
    expect(events.at(-1)?.event).toBe('complete');
    await healthy.close();

    // Every process is still up, and a subscriber opened now on any of them gets every later change.
    for (const gateway of gateways) expect(gateway.child.exitCode).toBeNull();
    expect(first.lines.filter((line) => line.msg.includes('worker exited'))).toEqual([]);
    const later = await subscribe(gateways.at(-1)?.url as string, watch, { key: apiKey });
    await floodThroughEveryProcess(gateways, apiKey, petId, 2);
    expect((await later.nextCount(300)).map((e) => e.data.inventoryChanged.version)).toEqual(
      Array.from({ length: 300 }, (_, i) => changes + i + 1),
    );
    await later.close();
  }, 120_000);
});
