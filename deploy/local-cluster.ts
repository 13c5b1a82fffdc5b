// N gateways on one PostgreSQL database and one Redis, behind HAProxy, all on loopback: what
// `npm run cluster:local` runs and what the deployment tests drive. It runs deploy/haproxy.cfg and
// deploy/gateway.env.example as shipped, with only the addresses, ports and shared services replaced.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseEnv } from 'node:util';
import {
  freePort,
  LOOPBACK as HOST,
  pollUntil,
  type StartedProcess,
  startProcess,
  stopProcess,
} from './processes.ts';

const ROOT = join(import.meta.dirname, '..');
const BACKEND = 'gateways';

export interface LocalClusterOptions {
  instances: number;
  /** The PostgreSQL database every instance shares. */
  databaseUrl: string;
  redisUrl: string;
  /** Gateway settings over deploy/gateway.env.example's. */
  env?: Record<string, string | undefined>;
  /** HAProxy's front port; a free one by default. */
  port?: number;
  /**
   * Starts the children in process groups of their own, so that a terminal's Ctrl-C reaches only this process,
   * which then stops each of them once, in order.
   */
  detached?: boolean;
  /** Every line a child writes: a gateway's JSON log lines, HAProxy's log and warnings. */
  onLine?: (source: string, line: string) => void;
}

/** One gateway as HAProxy knows it: its server name and port stay the same across restarts. */
export interface Instance {
  name: string;
  port: number;
  url: string;
  process: ChildProcess | undefined;
}

/** A gateway's row of HAProxy's statistics. */
export interface ServerStats {
  name: string;
  /** UP, DOWN, or a transition such as "UP 1/2" (one failed check of the two that take it out). */
  status: string;
  /** Responses by class, counted since HAProxy started (across the gateway's restarts). */
  responses: { '2xx': number; '4xx': number; '5xx': number };
}

export type LocalCluster = Awaited<ReturnType<typeof startLocalCluster>>;

export async function startLocalCluster(options: LocalClusterOptions) {
  const workdir = await mkdtemp(join(tmpdir(), 'petstore-cluster-'));
  const gatewayEnv = {
    ...parseEnv(await readFile(join(ROOT, 'deploy/gateway.env.example'), 'utf8')),
    ...options.env,
  };
  const instances: Instance[] = [];
  for (let i = 1; i <= options.instances; i++) {
    const port = await freePort();
    instances.push({ name: `gateway${i}`, port, url: `http://${HOST}:${port}`, process: undefined });
  }
  const frontPort = options.port ?? (await freePort());
  const statsPort = await freePort();
  const statsUrl = `http://${HOST}:${statsPort}/`;
  let haproxy: ChildProcess | undefined;
  // Last resort if the caller dies without stopping the cluster: nothing it started outlives it.
  const killAll = () => {
    for (const child of [haproxy, ...instances.map((instance) => instance.process)]) child?.kill('SIGKILL');
  };
  process.on('exit', killAll);

  const spawnChild = (source: string, command: string, args: string[], env: NodeJS.ProcessEnv) =>
    startProcess(source, command, args, {
      cwd: ROOT,
      env: { PATH: process.env.PATH, ...env },
      detached: options.detached ?? false,
      onLine: (line) => options.onLine?.(source, line),
    });

  /** Starts instance `index` (again) on its port and resolves once its /readyz answers 200. */
  async function startInstance(index: number): Promise<void> {
    const instance = at(index);
    if (instance.process && isRunning(instance.process)) throw new Error(`${instance.name} is running`);
    const started = spawnChild(
      instance.name,
      process.execPath,
      ['--import', pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href, 'src/main.ts'],
      {
        ...gatewayEnv,
        HOST,
        PORT: String(instance.port),
        DATABASE_URL: options.databaseUrl,
        REDIS_URL: options.redisUrl,
      },
    );
    instance.process = started.child;
    await pollUntil(started, `${instance.name} to be ready`, async () => {
      const response = await fetch(`${instance.url}/readyz`).catch(() => undefined);
      return response?.status === 200;
    });
  }

  /** Sends `signal` to instance `index` and resolves with how it ended (exit code, or the signal). */
  async function stopInstance(index: number, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') {
    const child = at(index).process;
    if (!child || !isRunning(child)) throw new Error(`${at(index).name} is not running`);
    return stopProcess(child, { signal });
  }

  /** HAProxy's view of each gateway. */
  async function serverStats(): Promise<ServerStats[]> {
    const csv = await (await fetch(`${statsUrl};csv`)).text();
    const [header, ...rows] = csv.split('\n').map((line) => line.split(','));
    const column = (row: string[], name: string) => row[header?.indexOf(name) ?? -1] ?? '';
    return rows
      .filter((row) => row[0] === BACKEND && row[1] !== 'BACKEND')
      .map((row) => ({
        name: column(row, 'svname'),
        status: column(row, 'status'),
        responses: {
          '2xx': Number(column(row, 'hrsp_2xx')),
          '4xx': Number(column(row, 'hrsp_4xx')),
          '5xx': Number(column(row, 'hrsp_5xx')),
        },
      }));
  }

  /** Resolves once HAProxy's checks have put instance `index` in `status` (UP or DOWN). */
  async function balancerSees(index: number, status: 'UP' | 'DOWN'): Promise<void> {
    const { name } = at(index);
    await pollUntil(haproxyProcess(), `HAProxy to see ${name} ${status}`, async () => {
      const stats = await serverStats().catch(() => []);
      return stats.find((server) => server.name === name)?.status === status;
    });
  }

  /**
   * A rolling step: SIGTERM to instance `index` (it drains, then exits), then the same instance started again
   * and taken back by HAProxy. Resolves with the old process's exit code.
   */
  async function restartInstance(index: number) {
    const exit = await stopInstance(index, 'SIGTERM');
    await startInstance(index);
    await balancerSees(index, 'UP');
    return exit;
  }

  let haproxyStarted: StartedProcess | undefined;
  const haproxyProcess = () => {
    if (!haproxyStarted) throw new Error('HAProxy is not started');
    return haproxyStarted;
  };

  /** Stops HAProxy and every gateway still running (SIGTERM: they drain), and removes the working files. */
  async function stop(): Promise<void> {
    const running = [haproxy, ...instances.map((instance) => instance.process)].filter(
      (child): child is ChildProcess => child !== undefined && isRunning(child),
    );
    const drainMs =
      Number(gatewayEnv.SHUTDOWN_DELAY_MS ?? 0) + Number(gatewayEnv.SHUTDOWN_TIMEOUT_MS ?? 10_000);
    await Promise.all(running.map((child) => stopProcess(child, { killAfterMs: drainMs + 10_000 })));
    process.off('exit', killAll);
    await rm(workdir, { recursive: true, force: true });
  }

  try {
    await Promise.all(instances.map((_, index) => startInstance(index)));
    const config = localHaproxyConfig(
      await readFile(join(ROOT, 'deploy/haproxy.cfg'), 'utf8'),
      frontPort,
      statsPort,
      instances,
    );
    const configFile = join(workdir, 'haproxy.cfg');
    await writeFile(configFile, config);
    haproxyStarted = spawnChild('haproxy', 'haproxy', ['-f', configFile, '-db'], {});
    haproxy = haproxyStarted.child;
    await pollUntil(haproxyStarted, 'HAProxy to serve', async () => {
      const stats = await serverStats().catch(() => []);
      return stats.length === instances.length && stats.every((server) => server.status === 'UP');
    });
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    /** Where clients go: HAProxy's front. */
    url: `http://${HOST}:${frontPort}`,
    statsUrl,
    instances: instances as readonly Instance[],
    startInstance,
    stopInstance,
    restartInstance,
    balancerSees,
    serverStats,
    stop,
  };

  function at(index: number): Instance {
    const instance = instances[index];
    if (!instance) throw new Error(`no instance ${index}: the cluster has ${instances.length}`);
    return instance;
  }
}

/**
 * The shipped configuration on loopback: the front and the statistics bound to the given ports, and the
 * example's server lines replaced by one per instance. Everything else (checks, retries, reuse, headers) is
 * used as shipped.
 */
export function localHaproxyConfig(
  shipped: string,
  frontPort: number,
  statsPort: number,
  instances: readonly Pick<Instance, 'name' | 'port'>[],
): string {
  let section = '';
  const replaced = new Set<string>();
  const lines = shipped.split('\n').flatMap((line) => {
    if (/^\S/.test(line) && !line.startsWith('#')) section = line.trim();
    const directive = line.trim().split(/\s+/)[0];
    if (section === 'frontend gateway' && directive === 'bind') {
      replaced.add('front');
      return [`    bind ${HOST}:${frontPort}`];
    }
    if (section === 'listen stats' && directive === 'bind') {
      replaced.add('stats');
      return [`    bind ${HOST}:${statsPort}`];
    }
    if (section === `backend ${BACKEND}` && directive === 'server') {
      if (replaced.has('servers')) return [];
      replaced.add('servers');
      return instances.map(({ name, port }) => `    server ${name} ${HOST}:${port}`);
    }
    return [line];
  });
  if (replaced.size !== 3) {
    throw new Error(
      `deploy/haproxy.cfg has no longer the shape this expects (frontend gateway, backend ${BACKEND}, listen stats)`,
    );
  }
  return lines.join('\n');
}

/** Started (a command that could not be spawned has no pid) and not ended. */
function isRunning(child: ChildProcess): boolean {
  return child.pid !== undefined && child.exitCode === null && child.signalCode === null;
}
