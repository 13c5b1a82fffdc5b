import { pino } from 'pino';

export type Logger = pino.Logger;

// The workers of WORKERS > 1 share the primary's stdout. A write to a pipe of at most PIPE_BUF bytes (4096 on
// Linux) is never interleaved with other processes' writes, and pino's destination fills a write with whole
// lines up to maxWrite: so another process's output never cuts a line (one longer than 4096 bytes aside).
const PIPE_BUF = 4096;
// While nobody reads stdout, lines wait in memory up to this much; later ones are dropped.
const MAX_UNWRITTEN_BYTES = 16 * 1024 * 1024;

type Output = ReturnType<typeof pino.destination>;
const outputs = new WeakMap<Logger, Output>();

/** The process's structured log: one JSON object per line on stdout, with the level's name and an ISO time. */
export function createLogger(level: string): Logger {
  // A stdout that nobody reads must not stop the process: the lines are written off the event loop (sync:
  // false), and at most so many wait in memory. (A pipe shared with the cluster's workers is put back in
  // blocking mode by each of them, so a write may still wait for a reader: see settleLog.)
  const output = pino.destination({
    dest: 1,
    maxWrite: PIPE_BUF,
    sync: false,
    maxLength: MAX_UNWRITTEN_BYTES,
  });
  const logger = pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    output,
  );
  outputs.set(logger, output);
  return logger;
}

/**
 * Before the process exits: waits up to `ms` for the log's last lines to be written, then drops what is left
 * (pino writes it synchronously on exit, which blocks for ever on a pipe nobody reads: a parent that died, a
 * reader that stopped). Answers false when a write is still under way in the thread pool: it may wait for a
 * reader for ever, and Node's exit would wait for it.
 */
export async function settleLog(logger: Logger, ms: number): Promise<boolean> {
  const output = outputs.get(logger);
  // SonicBoom says whether a write is under way, or lines wait, only in these fields.
  const state = output as unknown as { destroyed: boolean; _writing: boolean; _len: number } | undefined;
  if (!output || !state || state.destroyed) return true;
  if (state._writing || state._len > 0) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      output.once('drain', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  const stuck = state._writing;
  output.destroy();
  return !stuck;
}
