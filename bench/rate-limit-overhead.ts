// What the rate-limit layer costs per request, in-process: `yoga.fetch` of `pet(id:)` on the gateway's Yoga
// (SQLite, no response cache: every request executes), with an API key, with the layer and with an empty plugin
// in its place (the caller it would identify is then given), in one process. Prints, per round and overall, the
// mean CPU time per request of each variant and the mean and trimmed mean (middle 80%) of the paired differences.
// - The variants alternate request by request (ABBA), and each request's CPU time is taken on its own: this VM's
//   speed drifts by tens of percent over seconds, which swamped blocks of requests (an A/A comparison of blocks
//   differed by +-3 us, as much as the layer's cost), while neighbouring requests share the drift. The means keep
//   garbage collection, which falls on whichever request allocates past the threshold.
// - Yoga gets the server context in two parts, so that it merges them into one plain object, as node:http's
//   path hands it { req, res }; given a single object, yoga.fetch puts a fresh prototype in front of it per
//   request, which makes every property access on it (the layer's included) megamorphic: nothing production sees.
//   npx tsx bench/rate-limit-overhead.ts [memory|redis]
import { loadConfig } from '../src/config/index.ts';
import type { Quota } from '../src/contract/caller.ts';
import { petsByIdDeprecation } from '../src/contract/pets-by-id.ts';
import type { ServerContext } from '../src/graphql/context.ts';
import { buildSchema } from '../src/graphql/schema.ts';
import { createGraphQLServer } from '../src/graphql/yoga.ts';
import { createKeyLookup } from '../src/keys/lookup.ts';
import { createApiKey } from '../src/keys/repository.ts';
import { createLogger } from '../src/observability/logger.ts';
import { openCounterStore } from '../src/ratelimit/counters/open.ts';
import { createRateLimitPlugin } from '../src/ratelimit/plugin.ts';
import { REDIS_URL, silentLog } from '../test/ratelimit/stores.ts';
import { createTestDatabase } from '../test/support/databases.ts';

const ROUNDS = 3;
const PAIRS_PER_ROUND = 10_000;
const WARM_UP_PAIRS = 2_000;

const database = await createTestDatabase();
const { prisma } = database.db;
const category = await prisma.category.create({ data: { name: 'Cats' } });
const pet = await prisma.pet.create({
  data: { name: 'Tom', categoryId: category.id, inventory: { create: {} } },
});
const { key } = await createApiKey(prisma, { plan: 'enterprise', limits: { perMinute: 1e9, perDay: 1e9 } });

const config = loadConfig({
  DATABASE_URL: database.url,
  LOG_LEVEL: 'silent',
  ...(process.argv[2] === 'redis' && { REDIS_URL }),
});
const counters = await openCounterStore(config.rateLimit, silentLog);
const findKey = createKeyLookup(prisma, {
  ttlMs: config.rateLimit.keyCacheTtlMs,
  maxEntries: config.rateLimit.keyCacheSize,
});
const gateway = (rateLimit: ReturnType<typeof createRateLimitPlugin<ServerContext>>) =>
  createGraphQLServer({
    prisma,
    schema: buildSchema(petsByIdDeprecation(config.petsByIdDeprecation)),
    rest: {},
    idempotency: {},
    limits: config.graphqlLimits,
    production: true,
    logger: createLogger('silent'),
    rateLimit,
  });
const variants = {
  without: gateway({}),
  with: gateway(
    createRateLimitPlugin<ServerContext>({ config: config.rateLimit, counters, findKey, log: silentLog }),
  ),
};
// What node:http hands to Yoga, one per request. Without the layer, the caller and quota it would give are given.
const req = { socket: { remoteAddress: '127.0.0.1' } };
const caller = { kind: 'key', keyId: 1n, plan: 'enterprise', ip: '127.0.0.1' } as const;
const quota: Quota = {
  limit: 1e9,
  remaining: 1e9,
  resetAt: new Date(),
  maxSubscriptions: 1e9,
  limitFields: () => undefined,
  holdSubscription: () => ({ release() {} }),
};
const serverContexts = {
  without: () => ({ req, caller, quota }) as unknown as ServerContext,
  with: () => ({ req }) as unknown as ServerContext,
};
const noMoreContext = {} as ServerContext;

const body = JSON.stringify({ query: `{ pet(id: ${pet.id}) { id name status } }` });
const init = { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body };
type Variant = keyof typeof variants;
/** CPU microseconds of one request. */
async function cpuOfOne(variant: Variant): Promise<number> {
  const start = process.cpuUsage();
  const response = await variants[variant].fetch(
    'http://gateway/graphql',
    init,
    serverContexts[variant](),
    noMoreContext,
  );
  if (response.status !== 200) throw new Error(await response.text());
  await response.text();
  const { user, system } = process.cpuUsage(start);
  return user + system;
}

/** CPU time per request of each variant, and the layer's extra per pair of requests. */
async function round(pairs: number) {
  const without: number[] = [];
  const extra: number[] = [];
  for (let i = 0; i < pairs; i++) {
    const first = i % 2 === 0 ? 'with' : 'without';
    const a = await cpuOfOne(first);
    const b = await cpuOfOne(first === 'with' ? 'without' : 'with');
    const [withLayer, withoutLayer] = first === 'with' ? [a, b] : [b, a];
    without.push(withoutLayer);
    extra.push(withLayer - withoutLayer);
  }
  return { without, extra };
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
/** The mean of the middle 80%. */
const trimmedMean = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return mean(sorted.slice(Math.floor(sorted.length * 0.1), Math.ceil(sorted.length * 0.9)));
};
const describe = ({ without, extra }: { without: number[]; extra: number[] }) => {
  const base = mean(without);
  const cost = mean(extra);
  const trimmedBase = trimmedMean(without);
  const trimmedCost = trimmedMean(extra);
  return (
    `mean +${cost.toFixed(1)} µs on ${base.toFixed(1)} µs (${((cost / base) * 100).toFixed(1)}%); ` +
    `trimmed +${trimmedCost.toFixed(1)} µs on ${trimmedBase.toFixed(1)} µs (${((trimmedCost / trimmedBase) * 100).toFixed(1)}%)`
  );
};

const store = config.rateLimit.redisUrl ? 'redis' : 'memory';
await round(WARM_UP_PAIRS);
const all = { without: [] as number[], extra: [] as number[] };
for (let i = 1; i <= ROUNDS; i++) {
  const result = await round(PAIRS_PER_ROUND);
  all.without.push(...result.without);
  all.extra.push(...result.extra);
  console.log(`round ${i}: ${describe(result)}`);
}
console.log(`${store}, ${ROUNDS * PAIRS_PER_ROUND} pairs: ${describe(all)}`);
await counters.close();
await database.drop();
