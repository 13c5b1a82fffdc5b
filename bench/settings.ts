// The benchmark's knobs, from the environment.
function numberFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name}=${raw}: expected a number >= ${min}`);
  return value;
}

export const settings = {
  connections: numberFromEnv('BENCH_CONNECTIONS', 50, 1),
  warmupSeconds: numberFromEnv('BENCH_WARMUP', 3, 0),
  durationSeconds: numberFromEnv('BENCH_DURATION', 10, 1),
  soakSeconds: numberFromEnv('BENCH_SOAK_SECONDS', 60, 0),
};
