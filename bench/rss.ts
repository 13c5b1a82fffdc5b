// The gateway's resident memory, read from /proc (Linux), sampled while a load runs: the process and its
// children (the workers, when WORKERS > 1).
import { readFileSync } from 'node:fs';

export interface RssReport {
  /** Mean of the first minute's samples (after the warm-up), and of the last minute's. */
  startMb: number;
  endMb: number;
  peakMb: number;
  /** From `startMb` to `endMb`. */
  growthPercent: number;
}

// RSS follows the garbage collector's sawtooth by tens of MB within a second: single samples at each end
// would measure where in its cycle the collector was, so each end is the mean of a minute of samples.
const END_SAMPLES = 60;

export function rssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS in /proc/${pid}/status`);
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
  return Number(match[1]) / 1024 + children.reduce((sum, child) => sum + childRssMb(Number(child)), 0);
}

/** A child that exited between the listing and the reading counts nothing. */
function childRssMb(pid: number): number {
  try {
    return rssMb(pid);
  } catch {
    return 0;
  }
}

export async function rssDuring(pid: number, load: Promise<unknown>, intervalMs = 1000): Promise<RssReport> {
  const samples = [rssMb(pid)];
  const timer = setInterval(() => samples.push(rssMb(pid)), intervalMs);
  try {
    await load;
  } finally {
    clearInterval(timer);
  }
  samples.push(rssMb(pid));
  const count = Math.max(1, Math.min(END_SAMPLES, Math.floor(samples.length / 4)));
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const startMb = mean(samples.slice(0, count));
  const endMb = mean(samples.slice(-count));
  return { startMb, endMb, peakMb: Math.max(...samples), growthPercent: ((endMb - startMb) / startMb) * 100 };
}
