// `npx tsx bench/instructions.ts`: machine instructions per request, A against B, counted by valgrind's callgrind.
// On these shared cores a CPU-time A/B moves by 10-15% from round to round, more than most single levers; an
// instruction count does not move with the neighbours, but it moves with what the JIT made of each start (the
// same gateway started four times: 1.81-1.93 million per read by id), so take several rounds (BENCH_ROUNDS). It
// is not time (cache misses and the collector's threads weigh differently): confirm a lever with `bench/ab.ts`.
// Each side: the gateway under callgrind with counting off, a warm-up, then counting on for a fixed number of
// requests of one row at a fixed concurrency (1 by default: the same interleaving every time).
// Env: BENCH_A / BENCH_B entry points, BENCH_A_ENV / BENCH_B_ENV (JSON), BENCH_A_FLAGS / BENCH_B_FLAGS as for
// bench/ab.ts; BENCH_SCENARIO (a row name, default the GraphQL pet(id) read), BENCH_REQUESTS (2000),
// BENCH_WARMUP_REQUESTS (3000), BENCH_CONNECTIONS (1), BENCH_ROUNDS (1). SQLite only.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { onCleanup, runWithCleanup } from './cleanup.ts';
import { createBenchKey, seedCatalogue } from './database.ts';
import type { Workload } from './load.ts';
import { HOST, startGateway } from './processes.ts';
import { benchScenarios } from './scenarios.ts';

const count = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const requests = count('BENCH_REQUESTS', 2000);
const warmup = count('BENCH_WARMUP_REQUESTS', 3000);
const connections = count('BENCH_CONNECTIONS', 1);
const rounds = count('BENCH_ROUNDS', 1);
const scenarioName = process.env.BENCH_SCENARIO ?? 'GraphQL pet(id) + category name';

function side(name: 'A' | 'B', main: string) {
  return {
    name,
    main: process.env[`BENCH_${name}`] ?? main,
    env: JSON.parse(process.env[`BENCH_${name}_ENV`] ?? '{}') as NodeJS.ProcessEnv,
    flags: (process.env[`BENCH_${name}_FLAGS`] ?? '').split(/\s+/).filter(Boolean),
  };
}

/** Sends exactly `amount` requests of the workload, `connections` at a time; fails on any error. */
async function send(url: string, workload: Workload, headers: Record<string, string>, amount: number) {
  const all = { ...headers, 'content-type': 'application/json' };
  const result = await autocannon({
    url,
    connections,
    amount,
    // Under valgrind a request takes 50 times as long: autocannon's 10 s default would time some out.
    timeout: 300,
    requests: [{ setupRequest: (request) => ({ ...request, ...workload.next(), headers: { ...all } }) }],
  });
  const failed = result.errors + result.non2xx;
  if (failed > 0) throw new Error(`${failed} of ${amount} requests failed`);
}

/**
 * A command to the callgrind in that process. valgrind names its control pipes after the HOST variable, which
 * the gateway's environment sets to its listening address: the same must be given here.
 */
function control(command: string, pid: number) {
  execFileSync('callgrind_control', [command, String(pid)], {
    env: { ...process.env, HOST },
    stdio: 'ignore',
  });
}

async function instructionsPerRequest(
  dir: string,
  databaseUrl: string,
  who: ReturnType<typeof side>,
  workload: Workload,
  headers: Record<string, string>,
): Promise<number> {
  const out = path.join(dir, `callgrind.${who.name}.%p`);
  const gateway = await startGateway(databaseUrl, {
    main: who.main,
    nodeOptions: who.flags,
    env: { RESPONSE_CACHE_ENTRIES: '0', ...who.env },
    wrapper: {
      command: ['valgrind', '--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${out}`],
      startTimeoutMs: 600_000,
    },
  });
  try {
    await send(gateway.url, workload, headers, warmup);
    control('--instr=on', gateway.pid);
    await send(gateway.url, workload, headers, requests);
    control('--instr=off', gateway.pid);
    control('--dump', gateway.pid);
  } finally {
    await gateway.stop();
  }
  const file = out.replace('%p', String(gateway.pid));
  // Dumps are numbered .1, .2, ...: the one asked for holds the counted requests.
  const text = await readFile(`${file}.1`, 'utf8').catch(() => readFile(file, 'utf8'));
  const totals = /^totals: (\d+)/m.exec(text);
  if (!totals) throw new Error(`no totals in ${file}`);
  return Number(totals[1]) / requests;
}

await runWithCleanup(async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'petstore-instructions-'));
  if (!process.env.BENCH_KEEP) onCleanup(() => rm(dir, { recursive: true, force: true }));
  const databaseUrl = `file:${path.join(dir, 'bench.db')}`;
  const scenario = benchScenarios(await seedCatalogue(databaseUrl)).find(({ name }) => name === scenarioName);
  if (!scenario) throw new Error(`no scenario ${scenarioName}`);
  const { key } = await createBenchKey(databaseUrl);
  const headers: Record<string, string> = key ? { 'x-api-key': key } : {};
  const sides = [side('A', 'dist-a/main.js'), side('B', 'dist/main.js')];
  console.log(`${scenarioName}: ${requests} requests after ${warmup}, ${connections} connection(s), SQLite`);
  for (const who of sides)
    console.log(`${who.name}: ${who.main} ${who.flags.join(' ')} ${JSON.stringify(who.env)}`);
  for (let round = 0; round < rounds; round++) {
    const perRequest: Record<string, number> = {};
    for (const who of round % 2 === 0 ? sides : [...sides].reverse())
      perRequest[who.name] = await instructionsPerRequest(dir, databaseUrl, who, scenario.gateway, headers);
    const [ia, ib] = [perRequest.A as number, perRequest.B as number];
    console.log(
      `round ${round + 1}: A ${Math.round(ia).toLocaleString('en')} instructions/request, ` +
        `B ${Math.round(ib).toLocaleString('en')} (B/A ${(ib / ia).toFixed(3)})`,
    );
  }
});
