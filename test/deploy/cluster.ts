// The deployment under test: three gateways behind HAProxy (deploy/local-cluster.ts, the shipped configuration),
// on a fresh PostgreSQL schema and the test Redis under a prefix of their own.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type LocalCluster, startLocalCluster } from '../../deploy/local-cluster.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { perFile } from '../support/per-file.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Each gateway's pool: at most 3 x 8 connections, beside the other test files' on the same server. */
const POOL_SIZE = 8;

export interface TestCluster {
  database: TestDatabase;
  cluster: LocalCluster;
  /** What went wrong, as the processes saw it: HAProxy's lines, the gateways' warnings and errors. */
  incidents: string[];
  stop(): Promise<void>;
}

/**
 * Fails (never skips) when PostgreSQL, Redis or HAProxy is missing: a gateway that cannot reach Redis would
 * serve, degraded, with limits of its own, which is not the deployment under test.
 */
export async function startTestCluster(env: Record<string, string> = {}): Promise<TestCluster> {
  const database = await createTestDatabase({}, 'postgresql');
  const databaseUrl = new URL(database.url);
  databaseUrl.searchParams.set('connection_limit', String(POOL_SIZE));
  const incidents: string[] = [];
  let cluster: LocalCluster;
  try {
    cluster = await startLocalCluster({
      instances: 3,
      databaseUrl: databaseUrl.toString(),
      redisUrl: REDIS_URL,
      env: { RATE_LIMIT_REDIS_PREFIX: `deploy-${randomBytes(4).toString('hex')}`, ...env },
      // A test of this load reads thousands of log lines a second: only what cannot be a plain info line is parsed.
      onLine: (source, line) => {
        if (source === 'haproxy' || /"level":"(warn|error|fatal)"/.test(line))
          incidents.push(`${source}: ${line}`);
      },
    });
  } catch (error) {
    await database.drop();
    throw error;
  }
  const stop = async () => {
    await cluster.stop();
    await database.drop();
  };
  for (const instance of cluster.instances) {
    const readiness = await (await fetch(`${instance.url}/readyz`)).json();
    if (readiness.status !== 'ready') {
      await stop();
      throw new Error(`${instance.name} is not ready on PostgreSQL and Redis: ${JSON.stringify(readiness)}`);
    }
  }
  return { database, cluster, incidents, stop };
}

/** Resolves once HAProxy has had `count` more 2xx answers from instance `index` than when called. */
export async function servesAgain(cluster: LocalCluster, index: number, count = 20): Promise<void> {
  const name = cluster.instances[index]?.name;
  const answered = async () =>
    (await cluster.serverStats()).find((server) => server.name === name)?.responses['2xx'] ?? 0;
  const target = (await answered()) + count;
  while ((await answered()) < target) await sleep(100);
}

/** A test cluster for the tests of a file (or describe block): started before them, stopped after. */
export const useTestCluster = (env: Record<string, string> = {}): TestCluster =>
  perFile(
    () => startTestCluster(env),
    (cluster) => cluster.stop(),
  );
