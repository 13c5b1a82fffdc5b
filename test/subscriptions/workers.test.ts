import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { type Subscription, subscribe } from '../support/event-stream.ts';
import { type GatewayProcess, startGatewayProcess } from '../support/gateway-process.ts';
import { createTestKey } from '../support/keys.ts';
import { stockedPet } from '../support/stocked-pet.ts';

// WORKERS=2 without Redis: a change committed by either worker reaches the subscribers of both, through the
// primary.

let database: TestDatabase;
let gateway: GatewayProcess;
let apiKey: string;
const open: Subscription[] = [];

beforeAll(async () => {
  database = await createTestDatabase({}, 'sqlite');
  apiKey = await createTestKey(database.db.prisma, 'business');
  gateway = await startGatewayProcess({
    WORKERS: '2',
    DATABASE_URL: database.url,
    SEED_DEMO_DATA: 'false',
    PLACE_ORDER_PER_MINUTE: '100000',
  });
  const listening = () => gateway.lines.filter((line) => line.msg === 'worker listening');
  await gateway.logLine(() => listening().length === 2);
});
afterAll(async () => {
  await Promise.all(open.map((stream) => stream.close()));
  await gateway?.cleanUp();
  await database?.drop();
});

describe('subscriptions with WORKERS=2 and no Redis', () => {
  it("see every worker's committed changes", async () => {
    const petId = await stockedPet(database.db.prisma, 0, 'Relayed');
    const query = `subscription { inventoryChanged(petId: ${petId}) { quantity version } }`;
    // Streams on separate connections, which the workers share between them.
    for (let i = 0; i < 4; i++) open.push(await subscribe(gateway.url, query, { key: apiKey }));

    const writers: string[] = [];
    for (let quantity = 1; quantity <= 8; quantity++) {
      const response = await fetch(`${gateway.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey, connection: 'close' },
        body: JSON.stringify({
          query: `mutation { updateInventory(petId: ${petId}, input: { quantity: ${quantity} }) { quantity } }`,
        }),
      });
      expect(response.status).toBe(200);
      writers.push(response.headers.get('x-request-id') as string);
    }
    const pids = await Promise.all(
      writers.map(async (id) => (await gateway.logLine((line) => line.reqId === id)).pid),
    );
    expect(new Set(pids).size).toBe(2);
    for (const stream of open) {
      const events = (await stream.nextCount(8)).map((e) => e.data.inventoryChanged);
      expect(events).toEqual(Array.from({ length: 8 }, (_, i) => ({ quantity: i + 1, version: i + 1 })));
    }
  });
});
