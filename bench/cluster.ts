// BENCH_CLUSTER=1: 1, 2 and 3 gateways behind HAProxy on one PostgreSQL database and one Redis
// (deploy/local-cluster.ts, the set-up `npm run cluster:local` starts), under the first row's load.
import { randomBytes } from 'node:crypto';
import { type LocalCluster, startLocalCluster } from '../deploy/local-cluster.ts';
import { onCleanup } from './cleanup.ts';
import { type LoadSettings, measure } from './load.ts';
import type { ClusterRow } from './report.ts';
import type { Scenario } from './scenarios.ts';

const INSTANCES = [1, 2, 3];

/** 2xx responses HAProxy counted per gateway. */
async function answered(cluster: LocalCluster): Promise<number[]> {
  const stats = await cluster.serverStats();
  return cluster.instances.map(
    (instance) => stats.find((server) => server.name === instance.name)?.responses['2xx'] ?? 0,
  );
}

export async function benchCluster(
  databaseUrl: string,
  redisUrl: string,
  scenario: Scenario,
  load: LoadSettings,
  progress: (message: string) => void,
): Promise<ClusterRow[]> {
  const rows: ClusterRow[] = [];
  for (const instances of INSTANCES) {
    progress(`${instances} gateway(s) behind HAProxy: ${scenario.name}`);
    const cluster = await startLocalCluster({
      instances,
      databaseUrl,
      redisUrl,
      env: {
        RATE_LIMIT_REDIS_PREFIX: `bench-${randomBytes(4).toString('hex')}:`,
        RESPONSE_CACHE_ENTRIES: '0',
        // Nothing to drain for at the end of a row.
        SHUTDOWN_DELAY_MS: '0',
      },
    });
    onCleanup(() => cluster.stop());
    try {
      // The warm-up's responses are counted by HAProxy too: the per-gateway figures are of the measured part.
      await measure(cluster.url, scenario.gateway, {
        ...load,
        durationSeconds: load.warmupSeconds,
        warmupSeconds: 0,
      });
      const before = await answered(cluster);
      const total = await measure(cluster.url, scenario.gateway, { ...load, warmupSeconds: 0 });
      const after = await answered(cluster);
      const first = rows[0]?.total.requestsPerSecond ?? total.requestsPerSecond;
      rows.push({
        instances,
        total,
        perInstance: after.map((count, i) => (count - (before[i] ?? 0)) / load.durationSeconds),
        scaling: total.requestsPerSecond / first,
      });
    } finally {
      await cluster.stop();
    }
  }
  return rows;
}
