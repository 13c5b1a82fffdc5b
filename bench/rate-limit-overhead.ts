// What the rate-limit layer costs per request, in-process: CPU time of `yoga.fetch` of `pet(id:)` on the
// gateway's Yoga (SQLite), with an API key, with the layer and with an empty plugin in its place.
//   npx tsx bench/rate-limit-overhead.ts [memory|redis]
// Each variant runs in a process of its own, as a gateway only ever runs one configuration: two Yoga
// instances in one process share their code's JIT feedback, and each distorts the other's figure. The two
// alternate, RUNS times each, so that other work on the machine falls on both; the figures are medians.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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

const RUNS = 7;
const WARMUP_REQUESTS = 3000;
const BLOCKS = 20;
const REQUESTS_PER_BLOCK = 500;

type Variant = 'with' | 'without';
const store = process.argv[2] === 'redis' ? 'redis' : 'memory';

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** One process's figure: the median over blocks of CPU µs per request, after a warm-up. */
async function measureVariant(variant: Variant): Promise<number> {
  const database = await createTestDatabase();
  const { prisma } = database.db;
  const category = await prisma.category.create({ data: { name: 'Cats' } });
  const pet = await prisma.pet.create({
    data: { name: 'Tom', categoryId: category.id, inventory: { create: {} } },
  });
  const { key, record } = await createApiKey(prisma, {
    plan: 'enterprise',
    limits: { perMinute: 1e9, perDay: 1e9 },
  });
  const config = loadConfig({
    DATABASE_URL: database.url,
    LOG_LEVEL: 'silent',
    ...(store === 'redis' && { REDIS_URL }),
  });
  const counters = await openCounterStore(config.rateLimit, silentLog);
  const findKey = createKeyLookup(prisma, {
    ttlMs: config.rateLimit.keyCacheTtlMs,
    maxEntries: config.rateLimit.keyCacheSize,
  });
  const yoga = createGraphQLServer({
    prisma,
    petsByIdDeprecation: config.petsByIdDeprecation,
    rest: {},
    limits: config.graphqlLimits,
    production: true,
    logger: createLogger('silent'),
    rateLimit:
      variant === 'with'
        ? createRateLimitPlugin({ config: config.rateLimit, counters, findKey, log: silentLog })
        : {},
  });
  // What node:http hands to Yoga, one per request. Without the layer, the caller it would identify is given.
  const req = { socket: { remoteAddress: '127.0.0.1' } };
  const caller = { kind: 'key', keyId: record.id, plan: 'enterprise', ip: '127.0.0.1' } as const;
  const serverContext = () => (variant === 'with' ? { req } : { req, caller }) as unknown as ServerContext;
  const body = JSON.stringify({ query: `{ pet(id: ${pet.id}) { id name status } }` });
  const init = { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body };

  const request = async () => {
    const response = await yoga.fetch('http://gateway/graphql', init, serverContext());
    if (response.status !== 200) throw new Error(await response.text());
    await response.text();
  };
  const cpuMicros = () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  };
  for (let i = 0; i < WARMUP_REQUESTS; i++) await request();
  const blocks: number[] = [];
  for (let b = 0; b < BLOCKS; b++) {
    const start = cpuMicros();
    for (let i = 0; i < REQUESTS_PER_BLOCK; i++) await request();
    blocks.push((cpuMicros() - start) / REQUESTS_PER_BLOCK);
  }
  await counters.close();
  await database.drop();
  return median(blocks);
}

const variant = process.env.RATE_LIMIT_OVERHEAD_VARIANT as Variant | undefined;
if (variant) {
  console.log(await measureVariant(variant));
} else {
  const script = fileURLToPath(import.meta.url);
  const run = (v: Variant) =>
    Number(
      execFileSync(process.execPath, ['--import', 'tsx', script, store], {
        env: { ...process.env, RATE_LIMIT_OVERHEAD_VARIANT: v },
        encoding: 'utf8',
      }).trim(),
    );
  const figures: Record<Variant, number[]> = { with: [], without: [] };
  for (let i = 0; i < RUNS; i++) {
    figures.without.push(run('without'));
    figures.with.push(run('with'));
  }
  const without = median(figures.without);
  const withLayer = median(figures.with);
  const extra = withLayer - without;
  console.log(
    `${store}: ${without.toFixed(0)} µs without the layer, ${withLayer.toFixed(0)} µs with it (medians of ` +
      `${RUNS} processes each): +${extra.toFixed(1)} µs, ${((extra / without) * 100).toFixed(1)}%\n` +
      `  without: ${figures.without.map((f) => f.toFixed(0)).join(' ')}\n` +
      `  with:    ${figures.with.map((f) => f.toFixed(0)).join(' ')}`,
  );
}
