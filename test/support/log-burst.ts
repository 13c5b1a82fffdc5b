// Run by test/process/log-output.test.ts: writes LINES log lines in one turn of the event loop, then keeps the
// loop busy as a loaded server does (each turn computes for TURN_MS) and reports on stderr how many turns passed
// before the lines were all written to stdout. LOG_FORMAT=pretty writes them readable, as in a terminal.
import type { LogFormat } from '../../src/config/process.ts';
import { createLogger, settleLog } from '../../src/observability/logger.ts';

const LINES = Number(process.env.LINES ?? 2000);
const TURN_MS = 5;
const logger = createLogger('info', (process.env.LOG_FORMAT as LogFormat | undefined) ?? 'json');
for (let line = 0; line < LINES; line++) logger.info({ line, padding: 'x'.repeat(400) }, 'burst');
let turns = 0;
const counting = setInterval(() => {}, 1000);
const count = () => {
  turns++;
  const until = performance.now() + TURN_MS;
  while (performance.now() < until);
  setImmediate(count);
};
setImmediate(count);
const written = await settleLog(logger, 10_000);
clearInterval(counting);
process.stderr.write(JSON.stringify({ turns, written }));
process.exit(0);
