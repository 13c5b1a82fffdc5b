// N gateways on one PostgreSQL database and one Redis, behind HAProxy, all on loopback: what
// `npm run cluster:local` runs and what the deployment tests drive. It runs deploy/haproxy.cfg and
// deploy/gateway.env.example as shipped, with only the addresses, ports and shared services replaced.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Instance,
  isRunning,
  placeInstances,
  shippedSettings,
  startInstance,
} from './gateway-instance.ts';
import { type Balancer, startBalancer } from './haproxy.ts';
import { freePort, stopProcess } from './processes.ts';

export type { Instance } from './gateway-instance.ts';
export type { ServerStats } from './haproxy.ts';

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

export type LocalCluster = Awaited<ReturnType<typeof startLocalCluster>>;

export async function startLocalCluster(options: LocalClusterOptions) {
  const detached = options.detached ?? false;
  const workdir = await mkdtemp(join(tmpdir(), 'petstore-cluster-'));
  const settings: NodeJS.ProcessEnv = {
    ...(await shippedSettings()),
    ...options.env,
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
  };
  const instances = await placeInstances(options.instances);
  const frontPort = options.port ?? (await freePort());
  const statsPort = await freePort();
  let balancer: Balancer | undefined;
  const children = () => [balancer?.process.child, ...instances.map((instance) => instance.process)];
  // Last resort if the caller dies without stopping the cluster: nothing it started outlives it.
  const killAll = () => {
    for (const child of children()) child?.kill('SIGKILL');
  };
  process.on('exit', killAll);

  const at = (index: number): Instance => {
    const instance = instances[index];
    if (!instance) throw new Error(`no instance ${index}: the cluster has ${instances.length}`);
    return instance;
  };
  const running = (): Balancer => {
    if (!balancer) throw new Error('HAProxy is not started');
    return balancer;
  };

  /** Starts instance `index` (again) on its port and resolves once its /readyz answers 200. */
  const start = (index: number) =>
    startInstance(at(index), settings, {
      detached,
      onLine: (line) => options.onLine?.(at(index).name, line),
    });

  /** Sends `signal` to instance `index` and resolves with how it ended (exit code, or the signal). */
  const stopInstance = (index: number, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    const child = at(index).process;
    if (!isRunning(child)) throw new Error(`${at(index).name} is not running`);
    return stopProcess(child, { signal });
  };

  /** Resolves once HAProxy's checks have put instance `index` in `status` (UP or DOWN). */
  const balancerSees = (index: number, status: 'UP' | 'DOWN') => running().sees(at(index).name, status);

  /**
   * A rolling step: SIGTERM to instance `index` (it drains, then exits), then the same instance started again
   * and taken back by HAProxy. Resolves with the old process's exit code.
   */
  async function restartInstance(index: number) {
    const exit = await stopInstance(index, 'SIGTERM');
    await start(index);
    await balancerSees(index, 'UP');
    return exit;
  }

  /** Stops HAProxy and every gateway still running (SIGTERM: they drain), and removes the working files. */
  async function stop(): Promise<void> {
    const drainMs = Number(settings.SHUTDOWN_DELAY_MS ?? 0) + Number(settings.SHUTDOWN_TIMEOUT_MS ?? 10_000);
    await Promise.all(
      children()
        .filter(isRunning)
        .map((child) => stopProcess(child, { killAfterMs: drainMs + 10_000 })),
    );
    process.off('exit', killAll);
    await rm(workdir, { recursive: true, force: true });
  }

  try {
    await Promise.all(instances.map((_, index) => start(index)));
    balancer = await startBalancer({
      workdir,
      frontPort,
      statsPort,
      servers: instances,
      detached,
      onLine: (line) => options.onLine?.('haproxy', line),
    });
    await balancer.serving();
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    /** Where clients go: HAProxy's front. */
    url: balancer.url,
    statsUrl: balancer.statsUrl,
    instances: instances as readonly Instance[],
    startInstance: start,
    stopInstance,
    restartInstance,
    balancerSees,
    /** HAProxy's view of each gateway. */
    serverStats: balancer.serverStats,
    stop,
  };
}
