import { NESTED_ROW_COST } from '../../bench/processes.ts';
import { loadConfig } from '../../src/config/index.ts';
import type { Db } from '../../src/db/client.ts';
import { createPipeline } from '../../src/http/pipeline.ts';
import { createTestDatabase } from '../support/databases.ts';
import { injectInto } from '../support/inject.ts';
import { createTestKey } from '../support/keys.ts';
import { requestHelpers, type SendOptions } from '../support/requests.ts';

export interface Answer {
  status: number;
  /** The response headers a client reads (paging, content type), in order. */
  headers: string;
  body: string;
}

const SHOWN_HEADERS = ['content-type', 'link'];

/**
 * Two gateways on one database: one with the list planner (the default), one with LIST_PLANS=off, so that
 * every request can be sent to both and the answers compared byte for byte. The response cache is off on both:
 * each answer is executed. `statements` counts the SQL the planned side's database ran.
 */
export async function startTwins() {
  let statements: string[] = [];
  const database = await createTestDatabase({ onQuery: (sql) => statements.push(sql) });
  const base = {
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    PORT: '0',
    PLACE_ORDER_PER_MINUTE: '100000',
    RESPONSE_CACHE_ENTRIES: '0',
    GRAPHQL_MAX_COST: String(NESTED_ROW_COST),
    // Anonymous callers are on the free plan: the twins send them many requests too.
    RATE_LIMIT_PLANS: JSON.stringify({ free: { perMinute: 1_000_000, perDay: 10_000_000 } }),
  };
  const planned = await createPipeline({ config: loadConfig(base), db: database.db });
  const resolved = await createPipeline({
    config: loadConfig({ ...base, LIST_PLANS: 'off' }),
    db: database.db,
  });
  // Answered in-process: what is compared is the answers, not how they travel.
  const sides = {
    planned: requestHelpers(injectInto(planned.handle)),
    resolved: requestHelpers(injectInto(resolved.handle)),
  };
  const prisma: Db = database.db.prisma;
  // Limits no test here reaches: the twins answer many pages.
  const limits = { perMinute: 1_000_000, perDay: 10_000_000 };
  const keys = {
    admin: await createTestKey(prisma, 'business', limits),
    own: await createTestKey(prisma, 'business', limits, ['read', 'orders']),
  };

  async function ask(
    side: keyof typeof sides,
    method: string,
    path: string,
    options: SendOptions = {},
  ): Promise<Answer> {
    const response = await sides[side].send(method, path, options);
    const headers = SHOWN_HEADERS.map((name) => `${name}: ${response.headers.get(name)}`).join('\n');
    return { status: response.status, headers, body: response.text };
  }

  /** The same request to both gateways: the planned answer, the resolvers' answer. */
  async function send(method: string, path: string, options: SendOptions = {}) {
    return {
      planned: await ask('planned', method, path, options),
      resolved: await ask('resolved', method, path, options),
    };
  }

  /** A GET of `path` to both gateways, with `key` (none unless given). */
  const both = (path: string, key: string | null = null) => send('GET', path, { key });

  const graphqlRequest = (
    query: string,
    variables: Record<string, unknown> | undefined,
    key: string | null,
    operationName?: string,
  ): SendOptions => ({ key, body: { query, variables, operationName } });

  /** One GraphQL request to both gateways. */
  const graphql = (
    query: string,
    variables?: Record<string, unknown>,
    key: string | null = keys.admin,
    operationName?: string,
  ) => send('POST', '/graphql', graphqlRequest(query, variables, key, operationName));

  /** The statements a gateway's request ran (the key lookup aside): the planned one's unless told. */
  async function statementsOf(
    query: string,
    variables?: Record<string, unknown>,
    operationName?: string,
    side: keyof typeof sides = 'planned',
  ) {
    statements = [];
    const answer = await ask(
      side,
      'POST',
      '/graphql',
      graphqlRequest(query, variables, keys.admin, operationName),
    );
    return { answer, sql: statements.filter((sql) => !/ApiKey/i.test(sql)) };
  }

  return {
    prisma,
    keys,
    target: database.target,
    both,
    graphql,
    statementsOf,
    close: async () => {
      await Promise.all([planned.close(), resolved.close()]);
      await database.drop();
    },
  };
}

export type Twins = Awaited<ReturnType<typeof startTwins>>;

/** 2^53 + 1: the first id a JSON parser that reads numbers as doubles gets wrong. */
export const BEYOND_2_53 = 9007199254740993n;

/**
 * A store with what a list can show: categories with and without pets and descriptions, pets of every status
 * (names with quotes, backslashes, non-ASCII, control characters and SQL, as a script could have written them),
 * stock at and above zero, open and complete orders of two keys, an order whose pet was deleted, a ship date,
 * and ids beyond 2^53.
 */
export async function seedStore(twins: Twins): Promise<void> {
  const { prisma } = twins;
  const statuses = ['available', 'pending', 'sold'] as const;
  const names = [
    'Rex',
    'Tom "the cat"',
    'back\\slash',
    'Ünïcödé 🐍',
    '\'); DROP TABLE "Pet"; --',
    'tab\there',
    'line\u2028sep',
  ];
  for (let c = 1; c <= 12; c++) {
    const category = await prisma.category.create({
      data: { name: `Category ${c}`, description: c % 3 === 0 ? null : `Kind "${c}"` },
    });
    const pets = c === 5 ? 0 : 3 + (c % 4) * 7;
    for (let p = 0; p < pets; p++) {
      await prisma.pet.create({
        data: {
          name: `${names[(c + p) % names.length]} ${p}`,
          status: statuses[(c * p) % 3],
          categoryId: category.id,
          inventory: { create: { quantity: p % 4 === 0 ? 0 : p, openOrders: p % 8 === 0 ? 1 : 0 } },
        },
      });
    }
  }
  const big = await prisma.category.create({ data: { id: BEYOND_2_53, name: 'Beyond 2^53' } });
  for (const id of [BEYOND_2_53, BEYOND_2_53 + 2n]) {
    await prisma.pet.create({
      data: { id, name: `Big ${id}`, categoryId: big.id, inventory: { create: { quantity: 2 } } },
    });
  }
  const keys = await prisma.apiKey.findMany({ orderBy: { id: 'asc' } });
  const pets = await prisma.pet.findMany({ orderBy: { id: 'asc' }, take: 30 });
  for (const [i, pet] of pets.entries()) {
    await prisma.order.create({
      data: {
        petId: pet.id,
        quantity: 1 + (i % 3),
        complete: i % 4 === 0,
        shipDate: i % 5 === 0 ? new Date(Date.UTC(2026, 10, 21, 12, i, 7, 123)) : null,
        apiKeyId: keys[i % 2]?.id ?? null,
      },
    });
  }
  await prisma.order.create({
    data: { petId: null, quantity: 2, complete: true, apiKeyId: keys[1]?.id ?? null },
  });
  await prisma.order.create({
    data: { id: BEYOND_2_53, petId: BEYOND_2_53, quantity: 1, apiKeyId: keys[0]?.id ?? null },
  });
}

/** Twins on one store seeded with seedStore: what every planner test starts from. */
export async function startSeededTwins(): Promise<Twins> {
  const twins = await startTwins();
  try {
    await seedStore(twins);
    return twins;
  } catch (error) {
    await twins.close();
    throw error;
  }
}
