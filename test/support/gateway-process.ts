import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProcess, stopProcess } from '../../deploy/processes.ts';
import { perFile } from './per-file.ts';
import { typescriptArgs } from './typescript-process.ts';

export interface LogLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

/**
 * The gateway as `npm start` runs it (src/main.ts in its own process, compiled by tsx), with `env` added to
 * a minimal environment. By default it runs in a new directory on a new SQLite file; given a `workdir`, it runs there on
 * the default DATABASE_URL, as a fresh clone would. Its stdout is read as the JSON log lines it is.
 */
export async function startGatewayProcess(
  env: Record<string, string> = {},
  options: { workdir?: string } = {},
) {
  const workdir = options.workdir ?? mkdtempSync(join(tmpdir(), 'petstore-process-'));
  // Killed with cleanUp's SIGKILL: the child must be the gateway itself (see typescriptArgs).
  const gateway = startProcess('the gateway', process.execPath, typescriptArgs('src/main.ts'), {
    cwd: workdir,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      ...(!options.workdir && { DATABASE_URL: `file:${join(workdir, 'petstore.db')}` }),
      ...env,
    },
  });
  const child = gateway.child;
  const lines: LogLine[] = [];
  let stderr = '';
  const waiters = new Set<() => void>();
  gateway.onLine((line, stream) => {
    if (stream === 'stderr') {
      stderr += `${line}\n`;
      return;
    }
    if (line === '') return;
    lines.push(JSON.parse(line));
    for (const wake of waiters) wake();
    waiters.clear();
  });
  const exited = new Promise<number | null>((done) => child.once('exit', done));

  /** The first log line that matches, waiting for it (and failing if the process ends first). */
  async function logLine(matches: (line: LogLine) => boolean): Promise<LogLine> {
    for (;;) {
      const found = lines.find(matches);
      if (found) return found;
      if (child.exitCode !== null) {
        const log = lines.map((line) => `${line.pid} ${line.msg}`).join('\n');
        throw new Error(
          `the gateway exited with ${child.exitCode}:\n${stderr}${log && `\nits log:\n${log}`}`,
        );
      }
      await Promise.race([new Promise<void>((wake) => waiters.add(wake)), exited]);
    }
  }

  const started = await logLine((line) => line.msg.startsWith('Pet Store Gateway on '));
  const url = /on (http:\/\/[\d.:]+)/.exec(started.msg)?.[1] as string;
  return {
    child,
    url,
    port: Number(new URL(url).port),
    lines,
    logLine,
    exited,
    /** Kills the process if still running and removes its files (unless the directory was given). */
    cleanUp: async () => {
      await stopProcess(child, { signal: 'SIGKILL' });
      if (!options.workdir) rmSync(workdir, { recursive: true, force: true });
    },
  };
}

export type GatewayProcess = Awaited<ReturnType<typeof startGatewayProcess>>;

/** A gateway process for the tests of a file (or describe block): started before them, cleaned up after. */
export const useGatewayProcess = (env: Record<string, string> = {}): GatewayProcess =>
  perFile(
    () => startGatewayProcess(env),
    (gateway) => gateway.cleanUp(),
  );
