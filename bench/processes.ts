// The servers under load, each a child process of its own (as `npm start` runs the gateway), so that the
// load generator in this process does not share their event loop.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort, LOOPBACK, pollUntil, startProcess, stopProcess } from '../deploy/processes.ts';
import { onCleanup } from './cleanup.ts';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

export const HOST = LOOPBACK;
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

export interface ServerProcess {
  url: string;
  pid: number;
  /** Asks the server to finish (SIGTERM), and kills it if it has not exited after a while. */
  stop(): Promise<void>;
}

export interface GatewayOptions {
  /** Environment over the benchmark's (RESPONSE_CACHE_ENTRIES, ...). */
  env?: NodeJS.ProcessEnv;
  nodeOptions?: string[];
  workers?: number;
  /** The entry point: compiled JavaScript (what `npm start` runs) by default; a .ts file runs under tsx. */
  main?: string;
  /** A command that runs node (valgrind, with its arguments), and how long the start may then take. */
  wrapper?: { command: string[]; startTimeoutMs: number };
}

export const COMPILED_MAIN = 'dist/main.js';

/** A cost limit the nested row fits in (its cost is about 22,500 points; the default limit is 20,000). */
export const NESTED_ROW_COST = 30_000;

/** The node flags of `npm start` (package.json's start script): the heap sizes the gateway is run with. */
export const START_FLAGS: string[] = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
)
  .scripts.start.split(/\s+/)
  .filter((word: string) => word.startsWith('--'));

/**
 * The gateway as `npm start` runs it, on the given database, without its demo catalogue. The per-field
 * placeOrder limit is lifted: the rows measure placing orders, not refusing them. The cost limit is raised
 * for the nested row (scenarios.ts), whose depth costs more than the default allows.
 */
export function startGateway(databaseUrl: string, options: GatewayOptions = {}): Promise<ServerProcess> {
  const main = options.main ?? COMPILED_MAIN;
  const loader = main.endsWith('.ts') ? ['--import', 'tsx'] : [];
  return startServer(
    'gateway',
    [...START_FLAGS, ...(options.nodeOptions ?? []), ...loader, main],
    {
      DATABASE_URL: databaseUrl,
      NODE_ENV: 'production',
      SEED_DEMO_DATA: 'false',
      PLACE_ORDER_PER_MINUTE: '1000000000',
      GRAPHQL_MAX_COST: String(NESTED_ROW_COST),
      WORKERS: String(options.workers ?? 1),
      ...options.env,
    },
    options.wrapper,
  );
}

/** The raw node:http server over the same database: better-sqlite3 on a SQLite file, pg on PostgreSQL. */
export function startBaseline(databaseUrl: string, workers = 1): Promise<ServerProcess> {
  const sqlite = databaseUrl.startsWith('file:');
  return startServer(
    'baseline',
    ['--import', 'tsx', sqlite ? 'bench/baseline-server.ts' : 'bench/baseline-pg-server.ts'],
    {
      BASELINE_DB: sqlite ? databaseUrl.slice('file:'.length) : databaseUrl,
      BASELINE_WORKERS: String(workers),
    },
  );
}

async function startServer(
  name: string,
  nodeArgs: string[],
  env: NodeJS.ProcessEnv,
  wrapper?: GatewayOptions['wrapper'],
): Promise<ServerProcess> {
  const port = await freePort();
  const [command, ...args] = [...(wrapper?.command ?? []), process.execPath, ...nodeArgs] as [
    string,
    ...string[],
  ];
  // Its stdout (the request log) is not read: this process is the load generator.
  const started = startProcess(name, command, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, HOST, PORT: String(port) },
    stdout: 'ignore',
  });
  const stop = async () => {
    await stopProcess(started.child, { killAfterMs: STOP_TIMEOUT_MS });
  };
  onCleanup(stop);
  const url = `http://${HOST}:${port}`;
  await pollUntil(
    started,
    `${url}/healthz`,
    async () => (await fetch(`${url}/healthz`).catch(() => undefined))?.ok === true,
    wrapper?.startTimeoutMs ?? START_TIMEOUT_MS,
  );
  return { url, pid: started.child.pid as number, stop };
}
