// `npm run bench`: the gateway beside its ceiling; the notes it prints say what is measured and how.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { cleanUp, cleanUpOnSignals, onCleanup } from './cleanup.ts';
import {
  type Catalogue,
  createBenchKey,
  dropPostgresSchema,
  freshPostgresSchema,
  seedCatalogue,
} from './database.ts';
import { fire, type LoadResult, type LoadSettings, measure, summarize } from './load.ts';
import { startBaseline, startGateway } from './processes.ts';
import { describeMachine, type Report, type Row, renderReport, saveReport } from './report.ts';
import { rssDuring } from './rss.ts';
import { type BaselineKind, benchWorkloads } from './scenarios.ts';
import { settings } from './settings.ts';

const postgresUrl = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')
  ? process.env.DATABASE_URL
  : undefined;

const progress = (message: string) => console.error(`[bench] ${message}`);

const gatewayProcesses =
  settings.workers > 1
    ? `a node:cluster primary and ${settings.workers} workers on one port, rate-limit counters in the primary`
    : 'one process';

const report: Report = {
  ...describeMachine(),
  settings,
  notes: [
    `The ${os.availableParallelism()} CPU(s) are shared by the server under load and the load generator ` +
      '(autocannon, in the bench process): absolute figures depend on the machine; compare ratios within one run.',
    'Baseline: node:http + prepared better-sqlite3 statements on the same SQLite file as the gateway (no key, ' +
      'no rate limit, no GraphQL). Reads pick a random pet or category per request.',
    'Gateway: a child process as `npm start` runs it (node --import tsx src/main.ts, NODE_ENV=production) with ' +
      `WORKERS=${settings.workers} (BENCH_WORKERS): ${gatewayProcesses}; its RSS is the sum over its processes.`,
  ],
  rows: [],
};

const baselineResults = new Map<BaselineKind, LoadResult>();

/** One gateway's rows: each scenario beside its baseline figure (measured once, on SQLite). */
async function benchGateway(
  label: string,
  databaseUrl: string,
  catalogue: Catalogue,
  baselineUrl: string,
  soakSeconds: number,
): Promise<void> {
  const workloads = benchWorkloads(catalogue);
  const { key, note } = await createBenchKey(databaseUrl);
  if (note && !report.notes.includes(note)) report.notes.push(note);
  const gateway = await startGateway(databaseUrl, [], settings.workers);
  const load: LoadSettings = { ...settings, headers: key ? { 'x-api-key': key } : {} };
  const server = `gateway (${label})`;
  const throughput = new Map<string, number>();

  for (const scenario of workloads.gateway) {
    let baseline = baselineResults.get(scenario.baseline);
    if (!baseline) {
      progress(`baseline: ${scenario.baseline}`);
      baseline = await measure(baselineUrl, workloads.baseline[scenario.baseline], {
        ...settings,
        headers: {},
      });
      baselineResults.set(scenario.baseline, baseline);
      report.rows.push({
        scenario: `baseline: ${scenario.baseline}`,
        server: 'node:http + SQLite',
        result: baseline,
      });
    }
    const row: Row = { scenario: scenario.name, server };
    if (scenario.rest && (await answers404(gateway.url + scenario.workload.next().path, load.headers))) {
      row.note = 'n/a (not served)';
    } else {
      progress(`${server}: ${scenario.name}`);
      row.result = await measure(gateway.url, scenario.workload, load);
      row.vsBaseline = row.result.requestsPerSecond / baseline.requestsPerSecond;
      throughput.set(scenario.name, row.result.requestsPerSecond);
      const graphql = scenario.sameAs && throughput.get(scenario.sameAs);
      if (graphql) row.restVsGraphql = row.result.requestsPerSecond / graphql;
    }
    report.rows.push(row);
  }

  if (soakSeconds > 0) {
    progress(`${server}: RSS under ${soakSeconds} s of reads`);
    await fire(gateway.url, workloads.soak, load, settings.warmupSeconds);
    const soak = fire(gateway.url, workloads.soak, load, soakSeconds);
    const rss = await rssDuring(gateway.pid, soak);
    report.rss = { ...rss, seconds: soakSeconds, load: summarize(await soak) };
  }
  await gateway.stop();
}

async function answers404(url: string, headers: Record<string, string>): Promise<boolean> {
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  return response.status === 404;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'petstore-bench-'));
  onCleanup(() => rm(dir, { recursive: true, force: true }));
  const sqliteFile = path.join(dir, 'bench.db');
  const sqliteUrl = `file:${sqliteFile}`;

  progress(`seeding ${sqliteFile}`);
  const catalogue = await seedCatalogue(sqliteUrl);
  const baseline = await startBaseline(sqliteFile);
  await benchGateway('SQLite', sqliteUrl, catalogue, baseline.url, settings.soakSeconds);

  if (postgresUrl) {
    const { url, schema } = freshPostgresSchema(postgresUrl);
    onCleanup(() => dropPostgresSchema(postgresUrl, schema));
    report.notes.push(
      `PostgreSQL rows: the gateway on DATABASE_URL in a fresh schema ${schema} (dropped after); their baseline ` +
        'is still the SQLite one.',
    );
    progress(`seeding PostgreSQL schema ${schema}`);
    await benchGateway('PostgreSQL', url, await seedCatalogue(url), baseline.url, 0);
  }

  console.log(renderReport(report));
  console.log(`written to ${saveReport(report)} and .json`);
}

cleanUpOnSignals();
try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
