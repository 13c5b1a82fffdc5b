import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { createTestDatabase, TEST_POSTGRES_URL, type TestDatabase } from '../support/databases.ts';
import type { GatewayProcess } from '../support/gateway-process.ts';
import { createTestKey } from '../support/keys.ts';
import { stockedPet } from '../support/stocked-pet.ts';
import { gatewaysOn, ordersAndStock, placeKeyedOrder } from './keyed-orders.ts';

// A gateway killed (SIGKILL) while a keyed write's transaction is open, its order written but not committed:
// nothing of it may remain, and the retry with the same key must run it, once. The test holds the transaction
// open from outside by locking the records table, which the write's last statement waits for. Only PostgreSQL
// lets another connection stop a transaction half-way: on SQLite the first writer holds the whole database, so
// this file runs once, on PostgreSQL.
describe('a keyed write on PostgreSQL, its gateway killed', () => {
  let database: TestDatabase;
  let prisma: Db;
  let apiKey: string;
  let schema: string;
  let petId: number;
  const gateways = gatewaysOn(() => database.url);
  const key = randomUUID();

  beforeAll(async () => {
    database = await createTestDatabase({}, 'postgresql');
    prisma = database.db.prisma;
    apiKey = await createTestKey(prisma, 'business');
    if (database.target.provider !== 'postgresql') throw new Error('PostgreSQL only');
    schema = database.target.schema;
    petId = await stockedPet(prisma, 5);
    await Promise.all([gateways.start(), gateways.start()]);
  });
  afterAll(async () => {
    await gateways.cleanUp();
    await database?.drop();
  });

  async function placeOrder(gateway: GatewayProcess) {
    const answer = await placeKeyedOrder(gateway, { apiKey, petId, key });
    return { ...answer, body: JSON.parse(answer.text) };
  }

  it('answers 409 from another process while the transaction is open, and keeps nothing when killed', async () => {
    const [doomed, other] = gateways.started as [GatewayProcess, GatewayProcess];
    const table = `"${schema}"."IdempotencyRecord"`;
    const lock = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await lock.connect();
    try {
      await lock.query('BEGIN');
      await lock.query(`LOCK TABLE ${table} IN SHARE MODE`);
      const inFlight = placeOrder(doomed).catch((error: Error) => error);
      // The write has run when the record's insert waits for the table.
      await until(async () => {
        const { rows } = await lock.query(
          `SELECT count(*)::int AS waiting FROM pg_locks WHERE relation = $1::regclass AND NOT granted`,
          [table],
        );
        return rows[0].waiting > 0;
      }, 'the keyed write waiting to insert its record');
      for (const gateway of [other, doomed]) {
        const repeat = await placeOrder(gateway);
        expect(repeat.status).toBe(409);
        expect(repeat.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      }
      doomed.child.kill('SIGKILL');
      await doomed.exited;
      expect(await inFlight).toBeInstanceOf(Error);
      await lock.query('COMMIT');
      // The killed gateway's server process inserts, then finds its client gone and rolls back.
      await until(async () => {
        const { rows } = await lock.query(
          `SELECT count(*)::int AS held FROM pg_locks WHERE relation = $1::regclass`,
          [table],
        );
        return rows[0].held === 0;
      }, 'the killed gateway’s transaction to end');
    } finally {
      await lock.end();
    }
    expect(await ordersAndStock(prisma, petId)).toEqual({ orders: 0, stock: 5 });
    expect(await prisma.idempotencyRecord.count()).toBe(0);
  });

  describe('restarted', () => {
    let restarted: GatewayProcess;
    beforeAll(async () => {
      restarted = await gateways.start();
    });

    it('runs the retry with the same key once, and replays it from then on', async () => {
      const retried = await placeOrder(restarted);
      expect(retried).toMatchObject({ status: 201, replayed: false });
      const other = gateways.started[1] as GatewayProcess;
      expect(await placeOrder(other)).toEqual({ ...retried, replayed: true });
      expect(await ordersAndStock(prisma, petId)).toEqual({ orders: 1, stock: 4 });
    });
  });
});

/** Waits for `condition`, checking every 20 ms, for at most 20 s. */
async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
