// HAProxy in front of the local cluster: the shipped deploy/haproxy.cfg on loopback, started, and read through its
// statistics page (each gateway's status and answers).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LOOPBACK, pollUntil, type StartedProcess, startProcess } from './processes.ts';

const SHIPPED_CONFIG = join(import.meta.dirname, 'haproxy.cfg');
const BACKEND = 'gateways';

/** A gateway as HAProxy's backend lists it. */
export interface Server {
  name: string;
  port: number;
}

/** A gateway's row of HAProxy's statistics. */
export interface ServerStats {
  name: string;
  /** UP, DOWN, or a transition such as "UP 1/2" (one failed check of the two that take it out). */
  status: string;
  /** Responses by class, counted since HAProxy started (across the gateway's restarts). */
  responses: { '2xx': number; '4xx': number; '5xx': number };
}

export interface Balancer {
  process: StartedProcess;
  /** Where clients go: HAProxy's front. */
  url: string;
  statsUrl: string;
  serverStats(): Promise<ServerStats[]>;
  /** Resolves once HAProxy serves: its checks see every server UP. */
  serving(): Promise<void>;
  /** Resolves once HAProxy's checks have put server `name` in `status`. */
  sees(name: string, status: 'UP' | 'DOWN'): Promise<void>;
}

/** Starts HAProxy on the shipped configuration made local, its file written into `workdir`. */
export async function startBalancer(options: {
  workdir: string;
  frontPort: number;
  statsPort: number;
  servers: readonly Server[];
  detached: boolean;
  onLine?: (line: string) => void;
}): Promise<Balancer> {
  const { workdir, frontPort, statsPort, servers } = options;
  const configFile = join(workdir, 'haproxy.cfg');
  const shipped = await readFile(SHIPPED_CONFIG, 'utf8');
  await writeFile(configFile, localHaproxyConfig(shipped, frontPort, statsPort, servers));
  const started = startProcess('haproxy', 'haproxy', ['-f', configFile, '-db'], {
    env: { PATH: process.env.PATH },
    detached: options.detached,
    onLine: options.onLine,
  });
  const statsUrl = `http://${LOOPBACK}:${statsPort}/`;
  const serverStats = () => readServerStats(statsUrl);
  return {
    process: started,
    url: `http://${LOOPBACK}:${frontPort}`,
    statsUrl,
    serverStats,
    serving: () =>
      pollUntil(started, 'HAProxy to serve', async () => {
        const stats = await serverStats().catch(() => []);
        return stats.length === servers.length && stats.every((server) => server.status === 'UP');
      }),
    sees: (name, status) =>
      pollUntil(started, `HAProxy to see ${name} ${status}`, async () => {
        const stats = await serverStats().catch(() => []);
        return stats.find((server) => server.name === name)?.status === status;
      }),
  };
}

/** The backend's servers, from the statistics page's CSV. */
async function readServerStats(statsUrl: string): Promise<ServerStats[]> {
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

/**
 * The shipped configuration on loopback: the front and the statistics bound to the given ports, and the
 * example's server lines replaced by one per server. Everything else (checks, retries, reuse, headers) is
 * used as shipped.
 */
export function localHaproxyConfig(
  shipped: string,
  frontPort: number,
  statsPort: number,
  servers: readonly Server[],
): string {
  let section = '';
  const replaced = new Set<string>();
  const lines = shipped.split('\n').flatMap((line) => {
    if (/^\S/.test(line) && !line.startsWith('#')) section = line.trim();
    const directive = line.trim().split(/\s+/)[0];
    if (section === 'frontend gateway' && directive === 'bind') {
      replaced.add('front');
      return [`    bind ${LOOPBACK}:${frontPort}`];
    }
    if (section === 'listen stats' && directive === 'bind') {
      replaced.add('stats');
      return [`    bind ${LOOPBACK}:${statsPort}`];
    }
    if (section === `backend ${BACKEND}` && directive === 'server') {
      if (replaced.has('servers')) return [];
      replaced.add('servers');
      return servers.map(({ name, port }) => `    server ${name} ${LOOPBACK}:${port}`);
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
