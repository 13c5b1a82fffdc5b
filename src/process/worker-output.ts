import type { Worker } from 'node:cluster';
import { type Logger, writeLogLines } from '../observability/logger.ts';

// A line this long without its end is passed on as it is rather than held.
const MAX_PARTIAL_LINE = 1024 * 1024;

/**
 * Passes a worker's stdout (piped to the primary: `WORKER_STDIO`) on to the primary's own, whole lines at a
 * time, so workers' lines never cut each other and each process writes its log in writes as large as it needs.
 * Settles when the worker's stdout has closed and all of it was passed on.
 */
export function relayWorkerOutput(worker: Worker, logger: Logger): Promise<void> {
  const { stdout } = worker.process;
  if (!stdout) return Promise.resolve();
  let partial = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => {
    const end = chunk.lastIndexOf('\n');
    if (end === -1 && partial.length + chunk.length < MAX_PARTIAL_LINE) {
      partial += chunk;
      return;
    }
    writeLogLines(logger, partial + chunk.slice(0, end + 1 || chunk.length));
    partial = end === -1 ? '' : chunk.slice(end + 1);
  });
  return new Promise((resolve) => {
    stdout.on('close', () => {
      if (partial) writeLogLines(logger, `${partial}\n`);
      resolve();
    });
  });
}

/** The workers' stdio: stdout to the primary, which relays it; stderr (crash reports) straight to the primary's. */
export const WORKER_STDIO = ['ignore', 'pipe', 'inherit', 'ipc'];
