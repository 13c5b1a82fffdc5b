import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { type GatewayProcess, startGatewayProcess } from '../support/gateway-process.ts';
import { createTestKey } from '../support/keys.ts';

// Idempotency records live in the database: they hold for every gateway process on it, and across restarts.

let database: TestDatabase;
let prisma: Db;
let apiKey: string;
const gateways: GatewayProcess[] = [];

const startGateway = async () => {
  const gateway = await startGatewayProcess({
    DATABASE_URL: database.url,
    SEED_DEMO_DATA: 'false',
    PLACE_ORDER_PER_MINUTE: '100000',
  });
  gateways.push(gateway);
  return gateway;
};

// The first gateway places an order with a key and is killed; a gateway started after it, and another beside
// that one, are then asked the same. Processes start here, where the hook's time limit allows for a busy machine.
let restarted: GatewayProcess;
let other: GatewayProcess;
let petId: number;
const key = randomUUID();
let ran: Awaited<ReturnType<typeof placeOrder>>;

beforeAll(async () => {
  database = await createTestDatabase();
  prisma = database.db.prisma;
  apiKey = await createTestKey(prisma, 'business');
  petId = await stocked(5);
  const first = await startGateway();
  ran = await placeOrder(first, petId, key);
  first.child.kill('SIGKILL');
  await first.exited;
  [restarted, other] = await Promise.all([startGateway(), startGateway()]);
});
afterAll(async () => {
  for (const gateway of gateways) await gateway.cleanUp();
  await database?.drop();
});

async function stocked(quantity: number): Promise<number> {
  const category = await prisma.category.create({ data: { name: 'Processes' } });
  const pet = await prisma.pet.create({
    data: { name: 'Shared', categoryId: category.id, inventory: { create: { quantity } } },
  });
  return Number(pet.id);
}

const ordersOf = (petId: number) => prisma.order.count({ where: { petId: BigInt(petId) } });
const stockOf = async (petId: number) =>
  (await prisma.inventoryItem.findUniqueOrThrow({ where: { petId: BigInt(petId) } })).quantity;

async function placeOrder(gateway: GatewayProcess, petId: number, key: string) {
  const response = await fetch(`${gateway.url}/store/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'idempotency-key': key },
    body: JSON.stringify({ petId }),
  });
  return {
    status: response.status,
    replayed: response.headers.get('idempotent-replayed') === 'true',
    location: response.headers.get('location'),
    text: await response.text(),
  };
}

describe('idempotency keys across gateway processes', () => {
  it('are replayed by a process started after the first was killed, and by another beside it', async () => {
    expect(ran).toMatchObject({ status: 201, replayed: false });
    expect(await placeOrder(restarted, petId, key)).toEqual({ ...ran, replayed: true });
    expect(await placeOrder(other, petId, key)).toEqual({ ...ran, replayed: true });
    expect(await ordersOf(petId)).toBe(1);
    expect(await stockOf(petId)).toBe(4);
  });

  it('run one of many simultaneous requests with one key sent to two processes', async () => {
    const pet = await stocked(50);
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
    expect(await ordersOf(pet)).toBe(1);
    expect(await stockOf(pet)).toBe(49);
  });
});
