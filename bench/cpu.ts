// CPU time a server spent, read from /proc (Linux): the process and its children (workers). Per request it is
// the figure that holds on a busy machine, where req/s follow whatever else the cores are doing.
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

export function cpuSeconds(pid: number): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0; // exited between the listing and the reading
  }
  // The fields after the command name (which may hold spaces) in parentheses; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const own = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
  return own + children.reduce((sum, child) => sum + cpuSeconds(Number(child)), 0);
}

/** Runs `work` and answers its result with the CPU microseconds the server spent per request meanwhile. */
export async function withCpu<Result extends { requests: number }>(
  pid: number,
  work: () => Promise<Result>,
): Promise<Result & { cpuUsPerRequest: number }> {
  const before = cpuSeconds(pid);
  const result = await work();
  const spent = cpuSeconds(pid) - before;
  return { ...result, cpuUsPerRequest: result.requests ? (spent * 1e6) / result.requests : 0 };
}
