import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { type Subscription, subscribe } from '../support/event-stream.ts';
import { type GatewayProcess, startGatewayProcess } from '../support/gateway-process.ts';
import { createTestKey } from '../support/keys.ts';
import { type Answer, overHttp, requestHelpers } from '../support/requests.ts';
import { REDIS_KEY_PREFIX, REDIS_URL } from './stores.ts';

// Refusals that give their point back (a per-field limit, the subscription cap) still count toward the ban,
// in every place the counters can live: a caller that keeps sending into them ends banned like any other.

const BAN_AFTER = 5;
const BAN_SECONDS = 300;
const env = {
  SEED_DEMO_DATA: 'false',
  PLACE_ORDER_PER_MINUTE: '2',
  RATE_LIMIT_BAN_AFTER: String(BAN_AFTER),
  RATE_LIMIT_BAN_SECONDS: String(BAN_SECONDS),
};

describe.each<{ counters: string; processes: number; extra: Record<string, string> }>([
  { counters: 'one process, counters in memory', processes: 1, extra: {} },
  {
    counters: 'two processes sharing Redis',
    processes: 2,
    extra: { REDIS_URL, RATE_LIMIT_REDIS_PREFIX: `${REDIS_KEY_PREFIX}-ban` },
  },
  { counters: "WORKERS=2, the primary's counters", processes: 1, extra: { WORKERS: '2' } },
])('every refusal counts toward the ban: $counters', ({ processes, extra }) => {
  let database: TestDatabase;
  let gateways: GatewayProcess[] = [];
  const streams: Subscription[] = [];
  beforeAll(async () => {
    database = await createTestDatabase({}, 'sqlite');
    gateways = await Promise.all(
      Array.from({ length: processes }, () =>
        startGatewayProcess({ ...env, ...extra, DATABASE_URL: database.url }),
      ),
    );
    if (extra.WORKERS) {
      const gateway = gateways[0] as GatewayProcess;
      await gateway.logLine(
        () => gateway.lines.filter((line) => line.msg === 'worker listening').length === 2,
      );
    }
  });
  afterAll(async () => {
    await Promise.all(streams.map((stream) => stream.close()));
    await Promise.all(gateways.map((gateway) => gateway.cleanUp()));
    await database?.drop();
  });

  /** The i-th request goes to each gateway in turn, on a connection of its own (so that workers share them). */
  const urlOf = (i: number) => (gateways[i % gateways.length] as GatewayProcess).url;
  const send = (i: number, path: string, key?: string, body?: unknown) =>
    requestHelpers(overHttp(urlOf(i)), key).send(body === undefined ? 'GET' : 'POST', path, {
      body,
      headers: { connection: 'close' },
    });

  /** The code of a REST answer's Error object or of a GraphQL answer's first error. */
  const errorOf = ({ body }: Answer) => (body.errors ? body.errors[0].extensions.code : body.code);

  it('a Pro key placing orders past its per-field limit, over GraphQL and REST, ends banned', async () => {
    const key = await createTestKey(database.db.prisma, 'pro');
    const category = await database.db.prisma.category.create({ data: { name: 'Ban' } });
    const pet = await database.db.prisma.pet.create({
      data: { name: 'Limited', categoryId: category.id, inventory: { create: { quantity: 20 } } },
    });
    const seen = [];
    for (let i = 0; i < 2 + BAN_AFTER + 1; i++) {
      const response =
        i % 2
          ? await send(i, '/store/orders', key, { petId: Number(pet.id) })
          : await send(i, '/graphql', key, {
              query: `mutation { placeOrder(input: { petId: ${pet.id} }) { id } }`,
            });
      seen.push({
        status: response.status,
        code: response.status === 429 ? errorOf(response) : 'ok',
        remaining: Number(response.headers.get('x-ratelimit-remaining')),
        retryAfter: response.headers.get('retry-after'),
      });
    }
    const refused = { status: 429, code: 'RATE_LIMITED', remaining: 298, retryAfter: expect.any(String) };
    expect(seen).toEqual([
      { status: 200, code: 'ok', remaining: 299, retryAfter: null },
      { status: 201, code: 'ok', remaining: 298, retryAfter: null },
      ...Array(BAN_AFTER).fill(refused),
      { status: 429, code: 'KEY_BANNED', remaining: 0, retryAfter: String(BAN_SECONDS) },
    ]);
    // Banned for everything now, not only orders; and nothing of the refused orders was kept.
    const read = await send(0, '/pets?limit=1', key);
    expect([read.status, errorOf(read)]).toEqual([429, 'KEY_BANNED']);
    expect(await database.db.prisma.order.count({ where: { petId: pet.id } })).toBe(2);
    const stock = await database.db.prisma.inventoryItem.findUniqueOrThrow({ where: { petId: pet.id } });
    expect(stock.quantity).toBe(18);
  });

  it('an anonymous caller opening subscriptions past its cap ends banned', async () => {
    const category = await database.db.prisma.category.create({ data: { name: 'Watched' } });
    const pet = await database.db.prisma.pet.create({
      data: { name: 'Watched', categoryId: category.id, inventory: { create: { quantity: 1 } } },
    });
    const query = `subscription { inventoryChanged(petId: ${pet.id}) { quantity } }`;
    // The Free plan's cap is 2.
    for (let i = 0; i < 2; i++) {
      const stream = await subscribe(urlOf(i), query);
      streams.push(stream);
      expect(stream.response.status).toBe(200);
    }
    const codes = [];
    for (let i = 0; i < BAN_AFTER + 1; i++) {
      const refused = await subscribe(urlOf(i), query);
      expect(refused.response.status).toBe(429);
      await refused.ended;
      codes.push(refused.next()[0].errors[0].extensions.code);
    }
    expect(codes).toEqual([...Array(BAN_AFTER).fill('TOO_MANY_SUBSCRIPTIONS'), 'KEY_BANNED']);
    const read = await send(0, '/pets?limit=1');
    expect([read.status, read.headers.get('retry-after'), errorOf(read)]).toEqual([
      429,
      String(BAN_SECONDS),
      'KEY_BANNED',
    ]);
  });
});
