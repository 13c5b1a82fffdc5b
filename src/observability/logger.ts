import { pino } from 'pino';

export type Logger = pino.Logger;

/** The process's structured log: one JSON object per line on stdout, with an ISO time. */
export function createLogger(level: string): Logger {
  return pino({ level, timestamp: pino.stdTimeFunctions.isoTime });
}
