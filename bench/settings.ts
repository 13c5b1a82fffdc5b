// The benchmark's knobs, from the environment.
import { availableParallelism } from 'node:os';

function numberFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name}=${raw}: expected a number >= ${min}`);
  return value;
}

const flag = (name: string) => ['1', 'true', 'yes'].includes(process.env[name] ?? '');

/** BENCH_WORKERS: processes on each side of the extra like-for-like table; `auto` is one per CPU. */
function workersFromEnv(): number {
  const raw = process.env.BENCH_WORKERS;
  if (raw === undefined || raw === '') return 1;
  if (raw === 'auto') return availableParallelism();
  if (!/^[1-9]\d*$/.test(raw)) throw new Error(`BENCH_WORKERS=${raw}: expected a whole number >= 1 or auto`);
  return Number(raw);
}

/** BENCH_QUICK=1: short rows for trying the harness out; its figures are not the ones to quote. */
const quick = flag('BENCH_QUICK');

export const settings = {
  quick,
  connections: numberFromEnv('BENCH_CONNECTIONS', 50, 1),
  warmupSeconds: numberFromEnv('BENCH_WARMUP', quick ? 1 : 3, 0),
  durationSeconds: numberFromEnv('BENCH_DURATION', quick ? 3 : 10, 1),
  /** BENCH_RSS=1: the mixed row runs this long while the gateway's RSS is sampled (minute 1 against the last). */
  rssSeconds: flag('BENCH_RSS') ? numberFromEnv('BENCH_RSS_SECONDS', 300, 60) : 0,
  /** BENCH_CLUSTER=1 (PostgreSQL and Redis): 1, 2 and 3 gateways behind HAProxy. */
  cluster: flag('BENCH_CLUSTER'),
  workers: workersFromEnv(),
  /** BENCH_SQLITE=0 leaves SQLite out (for a PostgreSQL-only run). */
  sqlite: process.env.BENCH_SQLITE !== '0',
};
