// `npx tsx bench/profile.ts`: the gateway (compiled, `npm run build` first) under one row's load (BENCH_SCENARIO,
// a row name of `npm run bench`; default the GraphQL pet(id) read) with `--cpu-prof`, on SQLite or on a
// PostgreSQL DATABASE_URL (in a schema of its own, dropped after), then where its time went (bench/cpu-profile.ts).
// The profile is kept in bench/results/ for a flame graph (Chrome DevTools, speedscope).
// `npx tsx bench/profile.ts <file.cpuprofile>` only summarizes an existing profile.
// Env: BENCH_MAIN (another entry point, as in bench/ab.ts), BENCH_CACHE_ENTRIES (the response cache's size; 0,
// off, by default), BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS as for `npm run bench`.
import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { onCleanup, runWithCleanup } from './cleanup.ts';
import { type CpuProfile, summarizeProfile } from './cpu-profile.ts';
import { createBenchKey, dropPostgresSchema, freshPostgresSchema, seedCatalogue } from './database.ts';
import { fire, type LoadSettings, measure } from './load.ts';
import { startGateway } from './processes.ts';
import { resultFile } from './report.ts';
import { benchScenarios } from './scenarios.ts';
import { settings } from './settings.ts';

const SCENARIO = process.env.BENCH_SCENARIO ?? 'GraphQL pet(id) + category name';

/** Profiles the gateway; answers the kept profile and how long start-up and warm-up took in it. */
async function profileGateway(): Promise<{ file: string; fromMs: number }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'petstore-profile-'));
  onCleanup(() => rm(dir, { recursive: true, force: true }));
  const postgres = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
  let databaseUrl = `file:${path.join(dir, 'bench.db')}`;
  if (postgres) {
    const { url, schema } = freshPostgresSchema(postgres);
    onCleanup(() => dropPostgresSchema(postgres, schema));
    databaseUrl = url;
  }
  const scenario = benchScenarios(await seedCatalogue(databaseUrl)).find(({ name }) => name === SCENARIO);
  if (!scenario) throw new Error(`no scenario ${SCENARIO}`);
  const { key } = await createBenchKey(databaseUrl);
  const profileDir = path.join(dir, 'profile');
  const load: LoadSettings = { ...settings, warmupSeconds: 0, headers: key ? { 'x-api-key': key } : {} };
  const startedAt = performance.now();
  const gateway = await startGateway(databaseUrl, {
    main: process.env.BENCH_MAIN,
    nodeOptions: ['--cpu-prof', '--cpu-prof-dir', profileDir],
    env: { RESPONSE_CACHE_ENTRIES: process.env.BENCH_CACHE_ENTRIES ?? '0' },
  });
  await fire(gateway.url, scenario.gateway, load, settings.warmupSeconds);
  const fromMs = performance.now() - startedAt;
  const result = await measure(gateway.url, scenario.gateway, load);
  console.log(
    `${SCENARIO}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.p99Ms} ms, ` +
      `${result.errors} errors, non-2xx ${JSON.stringify(result.non2xx)} (with the profiler on)`,
  );
  // The profile is written when the process exits.
  await gateway.stop();
  const [written] = await readdir(profileDir);
  if (!written) throw new Error('the gateway wrote no profile');
  const kept = resultFile(new Date().toISOString(), '.cpuprofile');
  await copyFile(path.join(profileDir, written), kept);
  return { file: kept, fromMs };
}

await runWithCleanup(async () => {
  const { file, fromMs } = process.argv[2] ? { file: process.argv[2], fromMs: 0 } : await profileGateway();
  console.log(`${file}\n`);
  console.log(summarizeProfile(JSON.parse(await readFile(file, 'utf8')) as CpuProfile, { fromMs }));
});
