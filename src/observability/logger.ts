import { pino } from 'pino';

export type Logger = pino.Logger;

/** The process's structured log: one JSON object per line on stdout, with the level's name and an ISO time. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
}
