import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import type { GatewayProcess } from '../support/gateway-process.ts';
import { createTestKey } from '../support/keys.ts';
import { stockedPet } from '../support/stocked-pet.ts';
import { gatewaysOn, ordersAndStock, placeKeyedOrder } from './keyed-orders.ts';

// Idempotency records live in the database: they hold for every gateway process on it, and across restarts.

let database: TestDatabase;
let prisma: Db;
let apiKey: string;
const gateways = gatewaysOn(() => database.url);

// The first gateway places an order with a key and is killed; a gateway started after it, and another beside
// that one, are then asked the same. Processes start here, where the hook's time limit allows for a busy machine.
let restarted: GatewayProcess;
let other: GatewayProcess;
let petId: number;
const key = randomUUID();
let ran: Awaited<ReturnType<typeof placeKeyedOrder>>;
const placeOrder = (gateway: GatewayProcess, petId: number, key: string) =>
  placeKeyedOrder(gateway, { apiKey, petId, key });

beforeAll(async () => {
  database = await createTestDatabase();
  prisma = database.db.prisma;
  apiKey = await createTestKey(prisma, 'business');
  petId = await stockedPet(prisma, 5);
  const first = await gateways.start();
  ran = await placeOrder(first, petId, key);
  first.child.kill('SIGKILL');
  await first.exited;
  [restarted, other] = await Promise.all([gateways.start(), gateways.start()]);
});
afterAll(async () => {
  await gateways.cleanUp();
  await database?.drop();
});

describe('idempotency keys across gateway processes', () => {
  it('are replayed by a process started after the first was killed, and by another beside it', async () => {
    expect(ran).toMatchObject({ status: 201, replayed: false });
    expect(await placeOrder(restarted, petId, key)).toEqual({ ...ran, replayed: true });
    expect(await placeOrder(other, petId, key)).toEqual({ ...ran, replayed: true });
    expect(await ordersAndStock(prisma, petId)).toEqual({ orders: 1, stock: 4 });
  });

  it('run one of many simultaneous requests with one key sent to two processes', async () => {
    const pet = await stockedPet(prisma, 50);
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => placeOrder(i % 2 ? restarted : other, pet, key)),
    );
    const runs = answers.filter((answer) => answer.status === 201 && !answer.replayed);
    expect(runs).toHaveLength(1);
    for (const answer of answers) {
      if (answer.status === 201) expect(answer.text).toBe(runs[0]?.text);
      else expect(JSON.parse(answer.text).code).toBe('IDEMPOTENCY_KEY_IN_USE');
    }
    expect(await ordersAndStock(prisma, pet)).toEqual({ orders: 1, stock: 49 });
  });
});
