// The benchmark's knobs, from the environment.
import { availableParallelism } from 'node:os';

function numberFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name}=${raw}: expected a number >= ${min}`);
  return value;
}

/** BENCH_WORKERS: the gateway's WORKERS, a whole number >= 1 or `auto` (one per CPU, the default). */
function workersFromEnv(): number {
  const raw = process.env.BENCH_WORKERS;
  if (raw === undefined || raw === '' || raw === 'auto') return availableParallelism();
  if (!/^[1-9]\d*$/.test(raw)) throw new Error(`BENCH_WORKERS=${raw}: expected a whole number >= 1 or auto`);
  return Number(raw);
}

export const settings = {
  connections: numberFromEnv('BENCH_CONNECTIONS', 50, 1),
  warmupSeconds: numberFromEnv('BENCH_WARMUP', 3, 0),
  durationSeconds: numberFromEnv('BENCH_DURATION', 10, 1),
  soakSeconds: numberFromEnv('BENCH_SOAK_SECONDS', 60, 0),
  workers: workersFromEnv(),
};
