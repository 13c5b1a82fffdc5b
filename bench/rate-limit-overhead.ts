// What the rate-limit layer costs per request, in-process: `yoga.fetch` of `pet(id:)` on the gateway's Yoga
// (SQLite, no response cache: every request executes), with an API key, with the layer and with an empty plugin
// in its place, in alternating blocks in one process. Prints the CPU time per request: medians over the blocks,
// and the median of the differences between neighbouring blocks (robust to other work on the machine, which
// comes and goes). Separate processes per variant were tried: the same variant then differs by up to 30% from
// one process to the next, far more than the layer costs.
//   npx tsx bench/rate-limit-overhead.ts [memory|redis]
import { loadConfig } from '../src/config.ts';
import type { ServerContext } from '../src/graphql/context.ts';
import { createGraphQLServer } from '../src/graphql/yoga.ts';
import { createKeyLookup } from '../src/keys/lookup.ts';
import { createApiKey } from '../src/keys/repository.ts';
import { createLogger } from '../src/observability/logger.ts';
import { openCounterStore } from '../src/ratelimit/counters.ts';
import { createRateLimitPlugin } from '../src/ratelimit/plugin.ts';
import { REDIS_URL, silentLog } from '../test/ratelimit/stores.ts';
import { createTestDatabase } from '../test/support/databases.ts';

const BLOCKS = 100;
const REQUESTS_PER_BLOCK = 200;

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
const gateway = (rateLimit: ReturnType<typeof createRateLimitPlugin>) =>
  createGraphQLServer({
    prisma,
    petsByIdDeprecation: config.petsByIdDeprecation,
    rest: {},
    limits: config.graphqlLimits,
    production: true,
    logger: createLogger('silent'),
    rateLimit,
  });
const variants = {
  without: gateway({}),
  with: gateway(createRateLimitPlugin({ config: config.rateLimit, counters, findKey, log: silentLog })),
};
// What node:http hands to Yoga, one per request. Without the layer, the caller it would identify is given.
const req = { socket: { remoteAddress: '127.0.0.1' } };
const caller = { kind: 'key', keyId: 1n, plan: 'enterprise', ip: '127.0.0.1' } as const;
const serverContexts = {
  without: () => ({ req, caller }) as unknown as ServerContext,
  with: () => ({ req }) as unknown as ServerContext,
};

const body = JSON.stringify({ query: `{ pet(id: ${pet.id}) { id name status } }` });
const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
async function block(variant: keyof typeof variants): Promise<number> {
  const yoga = variants[variant];
  const start = cpuMicros();
  for (let i = 0; i < REQUESTS_PER_BLOCK; i++) {
    const response = await yoga.fetch(
      'http://gateway/graphql',
      { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body },
      serverContexts[variant](),
    );
    if (response.status !== 200) throw new Error(await response.text());
    await response.text();
  }
  return (cpuMicros() - start) / REQUESTS_PER_BLOCK;
}

const median = (values: number[]) =>
  values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
for (let i = 0; i < 5; i++) {
  await block('without');
  await block('with');
} // warm-up
const without: number[] = [];
const withLayer: number[] = [];
for (let i = 0; i < BLOCKS; i++) {
  without.push(await block('without'));
  withLayer.push(await block('with'));
}
const extra = median(withLayer.map((cost, i) => cost - (without[i] ?? Number.NaN)));
const base = median([...without]);
console.log(
  `${config.rateLimit.redisUrl ? 'redis' : 'memory'}: ${base.toFixed(0)} µs without, ${median([...withLayer]).toFixed(0)} µs with ` +
    `the layer; per-pair median +${extra.toFixed(1)} µs (${((extra / base) * 100).toFixed(1)}%)`,
);
await counters.close();
await database.drop();
