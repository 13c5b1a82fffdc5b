// The gateway's resident memory, read from /proc (Linux), sampled while a load runs: the process and its
// children (the workers, when WORKERS > 1).
import { readFileSync } from 'node:fs';

export interface RssReport {
  startMb: number;
  endMb: number;
  peakMb: number;
  /** From the first sample (taken after the warm-up) to the last. */
  growthPercent: number;
}

function rssMb(pid: number): number {
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
  const startMb = samples[0] as number;
  const endMb = samples.at(-1) as number;
  return { startMb, endMb, peakMb: Math.max(...samples), growthPercent: ((endMb - startMb) / startMb) * 100 };
}
