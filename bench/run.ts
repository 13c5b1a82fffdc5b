// `npm run bench`: the gateway beside a raw node:http server asking the same questions of the same database,
// one process against one, the response cache off; then the cache's own table (SQLite), the BENCH_WORKERS=N
// table, the RSS soak (BENCH_RSS=1) and HAProxy's table (BENCH_CLUSTER=1, PostgreSQL). Each database's report
// is printed and written to bench/results/<database>.md and .json.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { onCleanup, runWithCleanup } from './cleanup.ts';
import { benchCluster } from './cluster.ts';
import {
  type Catalogue,
  createBenchKey,
  dropPostgresSchema,
  freshPostgresSchema,
  seedCatalogue,
} from './database.ts';
import { fire, type LoadResult, type LoadSettings, measure, summarize, type Workload } from './load.ts';
import {
  COMPILED_MAIN,
  REPO_ROOT,
  type ServerProcess,
  START_FLAGS,
  startBaseline,
  startGateway,
} from './processes.ts';
import { describeMachine, type Report, type Row, renderReport, saveReport, type Table } from './report.ts';
import { rssDuring, rssMb } from './rss.ts';
import { benchScenarios, type Scenario } from './scenarios.ts';
import { settings } from './settings.ts';

const postgresUrl = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')
  ? process.env.DATABASE_URL
  : undefined;
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

// In memory where there is /dev/shm: on a shared virtual disk the WAL checkpoints' fsyncs stall both servers
// for tens of milliseconds, and the mixed row would measure the disk. BENCH_DIR puts the file elsewhere.
const benchDir = process.env.BENCH_DIR ?? (existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir());

const progress = (message: string) => console.error(`[bench] ${message}`);

const CACHE_OFF = { RESPONSE_CACHE_ENTRIES: '0' };

/**
 * Each scenario on side A then side B, then B then A, each side's figures the mean of its two: whichever side runs
 * second inherits the first one's aftermath (a busy machine, the collector catching up), so both take each turn.
 */
async function pairRows(
  scenarios: Scenario[],
  a: { server: ServerProcess; load: LoadSettings; workload: (s: Scenario) => Workload },
  b: { server: ServerProcess; load: LoadSettings; workload: (s: Scenario) => Workload; counts?: boolean },
): Promise<Row[]> {
  const rows: Row[] = [];
  const run = (side: typeof a, scenario: Scenario) =>
    measure(side.server.url, side.workload(scenario), side.load, side.server.pid);
  for (const scenario of scenarios) {
    progress(scenario.name);
    const before = b.counts ? await cacheCounts(b.server.url) : undefined;
    const baseline1 = await run(a, scenario);
    const gateway1 = await run(b, scenario);
    const gateway2 = await run(b, scenario);
    const baseline2 = await run(a, scenario);
    const [baseline, gateway] = [meanOf(baseline1, baseline2), meanOf(gateway1, gateway2)];
    const row: Row = {
      scenario: scenario.name,
      baseline,
      gateway,
      ratio: gateway.requestsPerSecond / baseline.requestsPerSecond,
    };
    const graphql = scenario.sameAs && rows.find((other) => other.scenario === scenario.sameAs);
    if (graphql) row.restVsGraphql = gateway.requestsPerSecond / graphql.gateway.requestsPerSecond;
    if (before && scenario.mixed) {
      // The warm-ups' lookups are in the difference too: the ratio is of the whole row.
      const after = await cacheCounts(b.server.url);
      const hits = after.hit - before.hit;
      const total = hits + after.miss - before.miss;
      if (total > 0) row.cacheHitRatio = hits / total;
    }
    rows.push(row);
  }
  return rows;
}

/** Two measurements of one side as one: means of rates and latencies, sums of counts. */
function meanOf(first: LoadResult, second: LoadResult): LoadResult {
  const mean = (pick: (result: LoadResult) => number | undefined) =>
    ((pick(first) ?? 0) + (pick(second) ?? 0)) / 2;
  const non2xx = { ...first.non2xx };
  for (const [status, count] of Object.entries(second.non2xx)) non2xx[status] = (non2xx[status] ?? 0) + count;
  return {
    requests: first.requests + second.requests,
    requestsPerSecond: mean((r) => r.requestsPerSecond),
    p50Ms: mean((r) => r.p50Ms),
    p99Ms: mean((r) => r.p99Ms),
    errors: first.errors + second.errors,
    non2xx,
    notModified: first.notModified + second.notModified,
    cpuUsPerRequest: mean((r) => r.cpuUsPerRequest),
  };
}

async function cacheCounts(url: string): Promise<{ hit: number; miss: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const count = (result: string) =>
    Number(
      new RegExp(`^petstore_response_cache_total\\{result="${result}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0,
    );
  return { hit: count('hit'), miss: count('miss') };
}

async function benchDatabase(database: Report['database'], databaseUrl: string, catalogue: Catalogue) {
  const report: Report = {
    ...describeMachine(),
    database,
    settings,
    notes: [
      `The ${os.availableParallelism()} CPU(s) are shared by the servers and the load generator (autocannon, in ` +
        'the bench process): absolute figures depend on the machine; compare ratios within one run.',
      `${catalogue.petIds.length} pets in ${catalogue.categoryIds.length} categories; each request picks a ` +
        'random pet or category (more ids than the response cache holds).',
      database === 'SQLite'
        ? 'Baseline: node:http + prepared better-sqlite3 statements on the same SQLite file (no key, no rate ' +
          'limit, no GraphQL).'
        : "Baseline: node:http + pg with named (prepared) statements and the gateway's pool size, on the same " +
          'schema (no key, no rate limit, no GraphQL).',
      `Gateway: as \`npm start\` runs it (node ${[...START_FLAGS, COMPILED_MAIN].join(' ')}), NODE_ENV=production, ` +
        'an enterprise API key on every request (the rate-limit layer counts each one). The baseline runs with ' +
        "node's defaults.",
      'CPU µs/req: CPU time of the server (with its workers) over the responses it gave, from /proc; "ratio by ' +
        "CPU\" is the baseline's over the gateway's, the throughput ratio if each had the cores to itself. It holds " +
        'on a busy machine, where req/s follow whatever else the cores are doing.',
      'REST GET /pets/{petId} answers the REST resource (no category name); its baseline answers the by-id ' +
        'question with the category name.',
    ],
    tables: [],
  };
  const { key } = await createBenchKey(databaseUrl);
  if (!key) throw new Error('no API key');
  const gatewayLoad: LoadSettings = { ...settings, headers: { 'x-api-key': key } };
  const baselineLoad: LoadSettings = { ...settings, headers: {} };
  const scenarios = benchScenarios(catalogue);
  const baselineSide = (server: ServerProcess) => ({
    server,
    load: baselineLoad,
    workload: (s: Scenario) => s.baseline,
  });
  const gatewaySide = (server: ServerProcess, counts = false) => ({
    server,
    load: gatewayLoad,
    workload: (s: Scenario) => s.gateway,
    counts,
  });

  const baseline = await startBaseline(databaseUrl);
  const gateway = await startGateway(databaseUrl, { env: CACHE_OFF });
  await sleep(2000);
  report.idleRssMb = rssMb(gateway.pid);
  report.afterBurst = await rssAfterBurst(gateway, scenarios, gatewayLoad);
  report.tables.push({
    title: `One process against one, response cache off (${database})`,
    sides: 'baseline: one node:http process; gateway: WORKERS=1, RESPONSE_CACHE_ENTRIES=0.',
    rows: await pairRows(scenarios, baselineSide(baseline), gatewaySide(gateway)),
  });

  // What the list planner gives: the list rows with LIST_PLANS=off, then on, the gateway against itself.
  const resolversOnly = await startGateway(databaseUrl, { env: { ...CACHE_OFF, LIST_PLANS: 'off' } });
  report.tables.push({
    title: `List plans off against on (${database}, one process each, response cache off)`,
    sides:
      'left: the gateway with LIST_PLANS=off (every list field by its resolvers); right: the default (on).',
    columns: ['plans off req/s', 'plans on req/s', 'on/off'],
    rows: await pairRows(
      scenarios.filter((s) => s.list),
      gatewaySide(resolversOnly),
      gatewaySide(gateway),
    ),
  });
  await resolversOnly.stop();

  if (database === 'SQLite') {
    // The cache's table compares the gateway with itself: cache off, then on, row by row.
    const cached = await startGateway(databaseUrl);
    const table: Table = {
      title: 'Response cache on against off (SQLite, one process each)',
      sides:
        'left: the gateway with RESPONSE_CACHE_ENTRIES=0; right: the same with the default cache (2000 results), ' +
        "measured right after. The mixed row's writes (orders, stock) drop cached results that read those tables only; pets and categories stay.",
      columns: ['cache off req/s', 'cache on req/s', 'on/off'],
      rows: await pairRows(
        scenarios.filter((s) => !s.sameAs),
        gatewaySide(gateway),
        gatewaySide(cached, true),
      ),
    };
    report.tables.push(table);
    if (settings.rssSeconds > 0) report.rss = await soak(cached, scenarios, gatewayLoad);
    await cached.stop();
  } else if (settings.rssSeconds > 0) {
    report.rss = await soak(gateway, scenarios, gatewayLoad);
  }
  await Promise.all([gateway.stop(), baseline.stop()]);

  if (settings.workers > 1) {
    const n = settings.workers;
    const baselines = await startBaseline(databaseUrl, n);
    const gateways = await startGateway(databaseUrl, { env: CACHE_OFF, workers: n });
    report.tables.push({
      title: `${n} processes against ${n}, response cache off (${database})`,
      sides: `baseline: ${n} node:http processes on one port (node:cluster); gateway: WORKERS=${n} (a primary and ${n} workers).`,
      rows: await pairRows(scenarios, baselineSide(baselines), gatewaySide(gateways)),
    });
    await Promise.all([gateways.stop(), baselines.stop()]);
  }

  if (settings.cluster && database === 'PostgreSQL') {
    try {
      report.cluster = await benchCluster(
        databaseUrl,
        redisUrl,
        scenarios[0] as Scenario,
        gatewayLoad,
        progress,
      );
    } catch (error) {
      // The tables above stand without it: say why it is missing rather than lose the run.
      report.notes.push(`BENCH_CLUSTER: not measured (${(error as Error).message.split('\n')[0]})`);
    }
  }
  return report;
}

const BURST_PAGES = 2000;

/** Resident memory 15 s after a burst of page reads: what a gateway keeps once a busy moment has passed. */
async function rssAfterBurst(gateway: ServerProcess, scenarios: Scenario[], load: LoadSettings) {
  const page = scenarios.find((s) => s.list) as Scenario;
  progress(`RSS 15 s after ${BURST_PAGES} page reads`);
  await fire(gateway.url, page.gateway, load, { amount: BURST_PAGES });
  await sleep(15_000);
  return { pages: BURST_PAGES, rssMb: rssMb(gateway.pid) };
}

/** The mixed row for BENCH_RSS seconds while the gateway's RSS is sampled. */
async function soak(gateway: ServerProcess, scenarios: Scenario[], load: LoadSettings) {
  const mixed = scenarios.find((s) => s.mixed) as Scenario;
  progress(`RSS under ${settings.rssSeconds} s of the mixed row`);
  await fire(gateway.url, mixed.gateway, load, settings.warmupSeconds);
  const run = fire(gateway.url, mixed.gateway, load, settings.rssSeconds);
  const rss = await rssDuring(gateway.pid, run);
  return { ...rss, seconds: settings.rssSeconds, load: summarize(await run) };
}

async function main(): Promise<void> {
  if (process.env.BENCH_BUILD !== '0') {
    progress('npm run build');
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
  }
  const reports: Report[] = [];
  if (settings.sqlite) {
    const dir = await mkdtemp(path.join(benchDir, 'petstore-bench-'));
    onCleanup(() => rm(dir, { recursive: true, force: true }));
    const url = `file:${path.join(dir, 'bench.db')}`;
    progress(`seeding ${url}`);
    reports.push(await benchDatabase('SQLite', url, await seedCatalogue(url)));
    reports.at(-1)?.notes.push(`The SQLite file is in ${benchDir} (BENCH_DIR).`);
  }
  if (postgresUrl) {
    const { url, schema } = freshPostgresSchema(postgresUrl);
    onCleanup(() => dropPostgresSchema(postgresUrl, schema));
    progress(`seeding PostgreSQL schema ${schema}`);
    reports.push(await benchDatabase('PostgreSQL', url, await seedCatalogue(url)));
  } else {
    progress('DATABASE_URL names no PostgreSQL database: SQLite only');
  }
  for (const report of reports) {
    console.log(renderReport(report));
    console.log(`written to ${saveReport(report)} and .json\n`);
  }
}

await runWithCleanup(main);
