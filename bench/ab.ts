// `npx tsx bench/ab.ts`: one lever, A against B, in one run: two gateways (one process each) on the same
// database, each row measured A then B, then B then A in the next round, so that drift in the machine's speed
// falls on both. Prints every round's raw req/s and p99 of both sides, the median B/A, and both idle RSS.
// Env: BENCH_A / BENCH_B the entry points (default dist-a/main.js and dist/main.js; a .ts file runs under tsx),
// BENCH_A_ENV / BENCH_B_ENV extra gateway settings as JSON, BENCH_A_FLAGS / BENCH_B_FLAGS extra node flags
// (space-separated, after npm start's), BENCH_ROUNDS (3), BENCH_ROWS (comma-separated
// parts of row names; default the two reads by id and the page), DATABASE_URL (PostgreSQL, else SQLite),
// and the knobs of `npm run bench` (BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS).
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { onCleanup, runWithCleanup } from './cleanup.ts';
import { createBenchKey, dropPostgresSchema, freshPostgresSchema, seedCatalogue } from './database.ts';
import { type LoadResult, type LoadSettings, measure } from './load.ts';
import { startGateway } from './processes.ts';
import { rssMb } from './rss.ts';
import { benchScenarios } from './scenarios.ts';
import { settings } from './settings.ts';

const sides = {
  A: side('A', 'dist-a/main.js'),
  B: side('B', 'dist/main.js'),
};
function side(name: 'A' | 'B', main: string) {
  return {
    main: process.env[`BENCH_${name}`] ?? main,
    env: JSON.parse(process.env[`BENCH_${name}_ENV`] ?? '{}') as NodeJS.ProcessEnv,
    flags: (process.env[`BENCH_${name}_FLAGS`] ?? '').split(/\s+/).filter(Boolean),
  };
}
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const wanted = (process.env.BENCH_ROWS ?? 'GraphQL pet(id),REST GET,GraphQL page').split(',');

async function database(): Promise<string> {
  const postgres = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
  if (postgres) {
    const { url, schema } = freshPostgresSchema(postgres);
    onCleanup(() => dropPostgresSchema(postgres, schema));
    return url;
  }
  const dir = await mkdtemp(path.join(existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'petstore-ab-'));
  onCleanup(() => rm(dir, { recursive: true, force: true }));
  return `file:${path.join(dir, 'bench.db')}`;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const rps = (result: LoadResult) => Math.round(result.requestsPerSecond);
const cpu = (result: LoadResult) => `${Math.round(result.cpuUsPerRequest ?? 0)} µs CPU/req`;

async function main() {
  const url = await database();
  const scenarios = benchScenarios(await seedCatalogue(url)).filter((s) =>
    wanted.some((part) => s.name.includes(part)),
  );
  const { key } = await createBenchKey(url);
  const load: LoadSettings = { ...settings, headers: key ? { 'x-api-key': key } : {} };
  const a = await startGateway(url, {
    main: sides.A.main,
    nodeOptions: sides.A.flags,
    env: { RESPONSE_CACHE_ENTRIES: '0', ...sides.A.env },
  });
  const b = await startGateway(url, {
    main: sides.B.main,
    nodeOptions: sides.B.flags,
    env: { RESPONSE_CACHE_ENTRIES: '0', ...sides.B.env },
  });
  await sleep(2000);
  console.log(
    `A: ${sides.A.main} ${sides.A.flags.join(' ')} ${JSON.stringify(sides.A.env)}, idle RSS ${rssMb(a.pid).toFixed(1)} MB`,
  );
  console.log(
    `B: ${sides.B.main} ${sides.B.flags.join(' ')} ${JSON.stringify(sides.B.env)}, idle RSS ${rssMb(b.pid).toFixed(1)} MB`,
  );
  console.log(
    `${url.startsWith('file:') ? 'SQLite' : 'PostgreSQL'}, ${settings.connections} connections, ${settings.durationSeconds} s per side`,
  );
  for (const scenario of scenarios) {
    const ratios: number[] = [];
    const cpuRatios: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? [a, b] : [b, a];
      const results = new Map<typeof a, LoadResult>();
      for (const server of order)
        results.set(server, await measure(server.url, scenario.gateway, load, server.pid));
      const [ra, rb] = [results.get(a) as LoadResult, results.get(b) as LoadResult];
      ratios.push(rb.requestsPerSecond / ra.requestsPerSecond);
      cpuRatios.push((rb.cpuUsPerRequest ?? 0) / (ra.cpuUsPerRequest ?? 1));
      const failed = (r: LoadResult) => r.errors + Object.values(r.non2xx).reduce((sum, n) => sum + n, 0);
      console.log(
        `${scenario.name} round ${round + 1}: A ${rps(ra)} req/s ${cpu(ra)} (p99 ${ra.p99Ms} ms, ${failed(ra)} failed), ` +
          `B ${rps(rb)} req/s ${cpu(rb)} (p99 ${rb.p99Ms} ms, ${failed(rb)} failed), ` +
          `B/A ${(rb.requestsPerSecond / ra.requestsPerSecond).toFixed(2)}`,
      );
    }
    console.log(
      `${scenario.name}: median B/A req/s ${median(ratios).toFixed(2)}, CPU per request ${median(cpuRatios).toFixed(2)}`,
    );
  }
  console.log(`after the rows: RSS A ${rssMb(a.pid).toFixed(1)} MB, B ${rssMb(b.pid).toFixed(1)} MB`);
}

await runWithCleanup(main);
