import { pino } from 'pino';
import type { LogFormat } from '../config/process.ts';
import { createPrettyFormatter } from './pretty-log.ts';

export type Logger = pino.Logger;

// pino's destination has one write under way at a time and starts the next when it completes, in the next turn
// of the event loop: a turn's lines must fit in one write, or they pile up under load until MAX_UNWRITTEN_BYTES
// and are dropped (small writes made lines wait under load: docs/performance.md, lever 11). Each
// process is the only writer of its stdout (the primary relays its workers': process/worker-output.ts).
const MAX_WRITE_BYTES = 1024 * 1024;
// While nobody reads stdout, lines wait in memory up to this much; later ones are dropped.
const MAX_UNWRITTEN_BYTES = 16 * 1024 * 1024;

type Output = ReturnType<typeof pino.destination>;
const outputs = new WeakMap<Logger, Output>();
const formats = new WeakMap<Logger, (lines: string) => string>();

/**
 * The process's structured log on stdout: one JSON object per line, with the level's name and an ISO time; or,
 * `pretty` (by default when stdout is a terminal), the same lines made readable. Either way they go through the
 * one bounded, non-blocking output below.
 */
export function createLogger(level: string, format?: LogFormat): Logger {
  // A stdout that nobody reads must not stop the process: the lines are written off the event loop (sync:
  // false), and at most so many wait in memory.
  const output = pino.destination({
    dest: 1,
    maxWrite: MAX_WRITE_BYTES,
    sync: false,
    maxLength: MAX_UNWRITTEN_BYTES,
  });
  const pretty = (format ?? (process.stdout.isTTY ? 'pretty' : 'json')) === 'pretty';
  const toText = pretty ? createPrettyFormatter() : undefined;
  const logger = pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    toText ? { write: (line: string) => output.write(toText(line)) } : output,
  );
  outputs.set(logger, output);
  if (toText) formats.set(logger, toText);
  return logger;
}

/**
 * Writes JSON log lines another process wrote (a worker's, relayed by the primary) to this process's log output,
 * made readable as this logger's own are.
 */
export function writeLogLines(logger: Logger, lines: string): void {
  const output = outputs.get(logger);
  if (!output || (output as unknown as { destroyed: boolean }).destroyed) return;
  const toText = formats.get(logger);
  output.write(toText ? toText(lines) : lines);
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
