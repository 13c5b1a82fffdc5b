// Child processes for the tools around the gateway: a free port, a process started with its output read by the
// line, waiting until it is ready, and stopping it. In deploy/ because bench/ and test/ already import deploy/ (the
// local cluster) and deploy/ imports neither, so sharing it adds no arrow; src/ is the service, which starts none.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export const LOOPBACK = '127.0.0.1';
const POLL_MS = 100;
const TAIL_CHARACTERS = 4000;

/**
 * A free port on loopback below Linux's ephemeral range (32768 and up), so that no outgoing connection takes it
 * while the server that was given it restarts.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const server = createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, LOOPBACK, () => resolve(true));
    });
    if (free) {
      await new Promise((closed) => server.close(closed));
      return port;
    }
  }
  throw new Error(`no free port found on ${LOOPBACK} between 20000 and 32000`);
}

export interface StartOptions {
  /** The whole environment of the child (nothing is inherited). */
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** In a process group of its own: a terminal's Ctrl-C then reaches only the parent. */
  detached?: boolean;
  /** `ignore` when it writes more than is worth reading (a gateway's request log under load). */
  stdout?: 'pipe' | 'ignore';
  /** Each line it writes, as it comes. */
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
}

export interface StartedProcess {
  name: string;
  child: ChildProcess;
  /** Resolves once it has ended: exited, or could not be started. */
  ended: Promise<void>;
  hasEnded(): boolean;
  /** Why it is not running: it could not be started, or how it exited and the last of what it wrote. */
  failure(): string;
  /** Adds a listener for its lines from now on; returns what removes it. */
  onLine(listener: (line: string, stream: 'stdout' | 'stderr') => void): () => void;
}

/** Starts `command` with its output read by the line; `name` is how messages call it. */
export function startProcess(
  name: string,
  command: string,
  args: string[],
  options: StartOptions,
): StartedProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', options.stdout ?? 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  const listeners = new Set<(line: string, stream: 'stdout' | 'stderr') => void>();
  if (options.onLine) listeners.add(options.onLine);
  let tail = '';
  for (const stream of ['stdout', 'stderr'] as const) {
    let pending = '';
    child[stream]?.setEncoding('utf8').on('data', (chunk: string) => {
      tail = (tail + chunk).slice(-TAIL_CHARACTERS);
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) for (const listener of listeners) listener(line, stream);
    });
  }
  let spawnError: Error | undefined;
  const ended = new Promise<void>((resolve) => {
    child.once('error', (error) => {
      spawnError = error;
      resolve();
    });
    child.once('exit', () => resolve());
  });
  const hasEnded = () =>
    spawnError !== undefined ||
    child.pid === undefined ||
    child.exitCode !== null ||
    child.signalCode !== null;
  return {
    name,
    child,
    ended,
    hasEnded,
    failure: () =>
      child.pid === undefined
        ? `${name} could not be started (${spawnError?.message ?? `is ${command} installed?`})`
        : `${name} exited with ${child.exitCode ?? child.signalCode}:\n${tail}`,
    onLine(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Polls `ready` until it holds; fails when the process ends first, or after `timeoutMs`. */
export async function pollUntil(
  started: StartedProcess,
  what: string,
  ready: () => Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (started.hasEnded()) throw new Error(started.failure());
    if (await ready()) return;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs / 1000} s for ${what}`);
    await sleep(POLL_MS);
  }
}

/** Resolves with the first line from now on that `matches`; fails when the process ends first. */
export function lineFrom(started: StartedProcess, matches: (line: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const stop = started.onLine((line) => {
      if (!matches(line)) return;
      stop();
      resolve(line);
    });
    void started.ended.then(() => {
      stop();
      reject(new Error(started.failure()));
    });
  });
}

/** Sends `signal` (SIGTERM: it may finish its work), then SIGKILL after `killAfterMs` if given; resolves with how it ended. */
export async function stopProcess(
  child: ChildProcess,
  { signal = 'SIGTERM', killAfterMs }: { signal?: NodeJS.Signals; killAfterMs?: number } = {},
): Promise<number | NodeJS.Signals | null> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
    return child.exitCode ?? child.signalCode;
  }
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  child.kill(signal);
  const killer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  const [code, killedBy] = await exited.finally(() => clearTimeout(killer));
  return code ?? killedBy;
}
