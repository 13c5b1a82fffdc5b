import { pino } from 'pino';

export type Logger = pino.Logger;

// The workers of WORKERS > 1 share the primary's stdout. A write to a pipe of at most PIPE_BUF bytes (4096 on
// Linux) is never interleaved with other processes' writes, and pino's destination fills a write with whole
// lines up to maxWrite: so another process's output never cuts a line (one longer than 4096 bytes aside).
const PIPE_BUF = 4096;

/** The process's structured log: one JSON object per line on stdout, with the level's name and an ISO time. */
export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    pino.destination({ dest: 1, maxWrite: PIPE_BUF }),
  );
}
