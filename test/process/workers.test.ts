import { Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/contract/scopes.ts';
import { createApiKey } from '../../src/keys/repository.ts';
import { placeOrder } from '../../src/store/orders.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { type GatewayProcess, startGatewayProcess } from '../support/gateway-process.ts';
import { type Answer, send } from '../support/node-http.ts';
import { slowUpload } from '../support/slow-upload.ts';

const PER_FIELD_LIMIT = 15;

// node:http's send (test/support/node-http.ts), not fetch: each request on a connection of its own, so that both
// workers take some, and its request id, to find the worker that answered in the log.
const graphql = (url: string, key: string, query: string) =>
  send(url, '/graphql', { method: 'POST', key, body: { query } });

const count = <T>(items: T[], value: T) => items.filter((item) => item === value).length;

describe('the gateway with WORKERS=2 on SQLite', () => {
  let database: TestDatabase;
  let gateway: GatewayProcess;
  let workerPids: number[];

  /** The pid of the worker that answered each request, from its request log line. */
  const answeredBy = (answers: Answer[]) =>
    Promise.all(
      answers.map(
        async ({ requestId }) => (await gateway.logLine((line) => line.reqId === requestId)).pid as number,
      ),
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    gateway = await startGatewayProcess({
      WORKERS: '2',
      DATABASE_URL: database.url,
      SEED_DEMO_DATA: 'false',
      PLACE_ORDER_PER_MINUTE: String(PER_FIELD_LIMIT),
    });
    // The primary announces the gateway as soon as both workers listen, which may be before they log it.
    const listening = () => gateway.lines.filter((line) => line.msg === 'worker listening');
    await gateway.logLine(() => listening().length === 2);
    workerPids = listening().map((line) => line.pid as number);
  });
  afterAll(async () => {
    await gateway?.cleanUp();
    await database?.drop();
  });

  it('serves from two worker processes on one port', () => {
    expect(new Set(workerPids).size).toBe(2);
    const primary = gateway.lines.find((line) => line.msg.startsWith('Pet Store Gateway on '));
    expect(primary?.msg).toMatch(/, 2 workers\)$/);
    expect(workerPids).not.toContain(primary?.pid);
  });

  it.each([
    {
      name: 'the per-minute limit of one key, 20 of 200 requests',
      plan: 'enterprise' as const,
      send: (key: string) => (i: number) =>
        i % 2
          ? send(gateway.url, '/categories?limit=1', { key })
          : graphql(gateway.url, key, '{ categories(first: 1) { edges { node { id } } } }'),
      requests: 200,
      statuses: { 200: 20, 429: 180 },
      orders: 0,
      afterwards: async (key: string, answers: Answer[]) => {
        // Each worker alone saw more than the limit: counting per worker would have admitted up to twice as many.
        const pids = await answeredBy(answers);
        for (const pid of workerPids) expect(count(pids, pid)).toBeGreaterThan(20);
        // 180 refusals in the window started a ban (RATE_LIMIT_BAN_AFTER=30), which every worker enforces.
        const later = [];
        for (let i = 0; i < 6; i++) later.push(await send(gateway.url, '/categories?limit=1', { key }));
        expect(later.map((answer) => answer.body.code)).toEqual(Array(6).fill('KEY_BANNED'));
        expect(new Set(await answeredBy(later)).size).toBe(2);
      },
    },
    {
      name: 'the placeOrder limit of one caller, 15 of 40 REST orders',
      plan: 'business' as const,
      send: (key: string, petId: number) => () =>
        send(gateway.url, '/store/orders', { method: 'POST', key, body: { petId, quantity: 1 } }),
      requests: 40,
      statuses: { 201: PER_FIELD_LIMIT, 429: 40 - PER_FIELD_LIMIT },
      orders: PER_FIELD_LIMIT,
    },
    {
      name: 'the placeOrder limit counting aliases, 3 of 8 operations of 4 aliased placeOrder (the rest refused whole)',
      plan: 'business' as const,
      send: (key: string, petId: number) => () =>
        graphql(
          gateway.url,
          key,
          `mutation { ${[0, 1, 2, 3].map((i) => `o${i}: placeOrder(input: { petId: ${petId} }) { id }`).join(' ')} }`,
        ),
      requests: 8,
      statuses: { 200: 3, 429: 5 },
      orders: 12,
    },
  ])(
    'admits exactly $name over both workers',
    async ({ plan, send: sender, requests, statuses, orders, afterwards }) => {
      const { key } = await createApiKey(database.db.prisma, {
        plan,
        scopes: SCOPES,
        ...(plan === 'enterprise' && { limits: { perMinute: 20, perDay: 100_000 } }),
      });
      const petId = orders > 0 ? await petInStock(gateway.url, key, 100) : 0;
      const answers = await Promise.all(Array.from({ length: requests }, (_, i) => sender(key, petId)(i)));
      const counted: Record<number, number> = {};
      for (const { status } of answers) counted[status] = (counted[status] ?? 0) + 1;
      expect(counted).toEqual(statuses);
      expect(new Set(await answeredBy(answers)).size).toBe(2);
      if (orders > 0) {
        const stock = await send(gateway.url, `/store/inventory/${petId}`, { key });
        expect(stock.body).toMatchObject({ quantity: 100 - orders });
      }
      await afterwards?.(key, answers);
    },
  );

  it('accepts exactly the stock of 40 concurrent orders over both workers, and refuses the rest', async () => {
    const keys = await Promise.all(
      Array.from(
        { length: 4 },
        async () => (await createApiKey(database.db.prisma, { plan: 'business', scopes: SCOPES })).key,
      ),
    );
    const petId = await petInStock(gateway.url, keys[0] as string, 10);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2
          ? send(gateway.url, '/store/orders', {
              method: 'POST',
              key: keys[i % 4],
              body: { petId, quantity: 1 },
            })
          : graphql(
              gateway.url,
              keys[i % 4] as string,
              `mutation { placeOrder(input: { petId: ${petId}, quantity: 1 }) { id } }`,
            ),
      ),
    );
    const outcomes = answers.map(({ status, body }) =>
      status === 200 ? (body.data?.placeOrder ? 'placed' : body.errors[0].extensions.code) : status,
    );
    expect(count(outcomes, 201) + count(outcomes, 'placed')).toBe(10);
    expect(count(outcomes, 409) + count(outcomes, 'OUT_OF_STOCK')).toBe(30);
    expect(new Set(await answeredBy(answers)).size).toBe(2);
    const stock = await send(gateway.url, `/store/inventory/${petId}`, { key: keys[0] });
    expect(stock.body).toMatchObject({ quantity: 0 });
  });

  it('completes and cancels orders concurrently over both workers, none refused for a busy database', async () => {
    const { key } = await createApiKey(database.db.prisma, { plan: 'business', scopes: SCOPES });
    const petId = await petInStock(gateway.url, key, 60);
    const orders = [];
    for (let i = 0; i < 60; i++)
      orders.push(await placeOrder({ prisma: database.db.prisma }, { petId: BigInt(petId) }));
    // Both read the order before they write: each transaction must hold the write lock from its start.
    const answers = await Promise.all(
      orders.map(({ id }, i) =>
        i % 2
          ? send(gateway.url, `/store/orders/${id}`, { method: 'DELETE', key })
          : send(gateway.url, `/store/orders/${id}`, { method: 'PATCH', key, body: { complete: true } }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect([count(statuses, 200), count(statuses, 204)]).toEqual([30, 30]);
    expect(new Set(await answeredBy(answers)).size).toBe(2);
    const stock = await send(gateway.url, `/store/inventory/${petId}`, { key });
    expect(stock.body).toMatchObject({ quantity: 30 });
  });

  it('answers /metrics for all workers together', async () => {
    const { key } = await createApiKey(database.db.prisma, { plan: 'business', scopes: SCOPES });
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => graphql(gateway.url, key, 'query MetricsProbe { __typename }')),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(new Set(await answeredBy(answers)).size).toBe(2);

    const metrics = await send(gateway.url, '/metrics');
    expect(metrics.body).toContain(
      'petstore_http_requests_total{api="graphql",operation="MetricsProbe",status="200"} 30',
    );
    expect(metrics.body).toContain(
      'petstore_http_request_duration_seconds_count{api="graphql",operation="MetricsProbe",status="200"} 30',
    );
  });

  it('answers 503 UNAVAILABLE while the primary (which keeps the counters) is stalled, and serves once it is back', async () => {
    // One kept-alive connection, already handed to a worker: a new one would wait for the stopped primary to accept it.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const primary = gateway.child.pid ?? 0;
    try {
      expect((await send(gateway.url, '/categories?limit=1', { agent })).status).toBe(200);
      process.kill(primary, 'SIGSTOP');
      const started = Date.now();
      const stalled = await send(gateway.url, '/categories?limit=1', { agent });
      expect(stalled.status).toBe(503);
      expect(stalled.body).toMatchObject({ code: 'UNAVAILABLE', status: 503 });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      process.kill(primary, 'SIGCONT');
    }
    expect((await send(gateway.url, '/categories?limit=1', { agent })).status).toBe(200);
    agent.destroy();
  });

  it('replaces a worker that dies', async () => {
    const [victim, survivor] = workerPids as [number, number];
    process.kill(victim, 'SIGKILL');
    expect(await gateway.logLine((line) => line.msg === 'worker exited unexpectedly')).toMatchObject({
      worker: victim,
      signal: 'SIGKILL',
    });
    const replacement = await gateway.logLine(
      (line) => line.msg === 'worker listening' && !workerPids.includes(line.pid as number),
    );
    workerPids = [survivor, replacement.pid as number];
    expect((await send(gateway.url, '/healthz')).status).toBe(200);
  });

  it('on SIGTERM lets every worker finish its requests in flight, stops them all, then exits 0', async () => {
    const uploads = [slowUpload(gateway.port), slowUpload(gateway.port)];
    for (const upload of uploads) await upload.inFlight;
    gateway.child.kill('SIGTERM');
    for (const pid of workerPids) {
      await gateway.logLine((line) => line.pid === pid && line.msg.startsWith('shutting down'));
    }
    for (const upload of uploads) upload.finish();
    for (const upload of uploads) expect((await upload.response).status).toBe(200);

    expect(await gateway.exited).toBe(0);
    expect(gateway.lines.at(-1)?.msg).toBe('stopped');
    for (const pid of workerPids) expect(isRunning(pid)).toBe(false);
  });
});

it('refuses bad configuration with exit status 1 before it forks a worker', async () => {
  await expect(startGatewayProcess({ WORKERS: '2', PORT: 'eighty' })).rejects.toThrow(
    /exited with 1:\nInvalid configuration:\n {2}PORT="eighty": must be a whole number from 0 to 65535\n*$/,
  );
}, 30_000);

it('gives up with exit status 1 when its workers keep failing to start', async () => {
  const holder = await startGatewayProcess();
  try {
    await expect(startGatewayProcess({ WORKERS: '2', PORT: String(holder.port) })).rejects.toThrow(
      /exited with 1:[\s\S]*Cannot listen on [\d.:]+: the address is already in use/,
    );
  } finally {
    await holder.cleanUp();
  }
}, 60_000);

async function petInStock(url: string, key: string, quantity: number): Promise<number> {
  const category = await send(url, '/categories', { method: 'POST', key, body: { name: 'Stocked' } });
  const pet = await send(url, '/pets', {
    method: 'POST',
    key,
    body: { name: 'In stock', categoryId: category.body.id },
  });
  const stock = await send(url, `/store/inventory/${pet.body.id}`, {
    method: 'PUT',
    key,
    body: { quantity },
  });
  expect(stock.status).toBe(200);
  return pet.body.id;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
