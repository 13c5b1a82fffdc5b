import { Writable } from 'node:stream';
import { pino } from 'pino';

/** A logger for a test app (its `logger` option) and every line it writes, parsed, in `lines`. */
export function collectingLogger<Line = Record<string, unknown>>(level: 'debug' | 'info' = 'info') {
  const lines: Line[] = [];
  const logger = pino(
    { level },
    new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    }),
  );
  return { logger, lines };
}
