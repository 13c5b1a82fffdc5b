// The local cluster's gateways: each src/main.ts under tsx on a loopback port of its own, with the shipped
// deploy/gateway.env.example's settings.
import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseEnv } from 'node:util';
import { freePort, LOOPBACK, pollUntil, startProcess } from './processes.ts';

const ROOT = join(import.meta.dirname, '..');

/** One gateway as HAProxy knows it: its server name and port stay the same across restarts. */
export interface Instance {
  name: string;
  port: number;
  url: string;
  process: ChildProcess | undefined;
}

/** `count` gateways named and given ports, none started. */
export async function placeInstances(count: number): Promise<Instance[]> {
  const instances: Instance[] = [];
  for (let i = 1; i <= count; i++) {
    const port = await freePort();
    instances.push({ name: `gateway${i}`, port, url: `http://${LOOPBACK}:${port}`, process: undefined });
  }
  return instances;
}

/** deploy/gateway.env.example's settings as shipped. */
export async function shippedSettings(): Promise<NodeJS.ProcessEnv> {
  return parseEnv(await readFile(join(ROOT, 'deploy/gateway.env.example'), 'utf8'));
}

/** Started (a command that could not be spawned has no pid) and not ended. */
export function isRunning(child: ChildProcess | undefined): child is ChildProcess {
  return child?.pid !== undefined && child.exitCode === null && child.signalCode === null;
}

/** Starts `instance` (again) on its port with `settings`, and resolves once its /readyz answers 200. */
export async function startInstance(
  instance: Instance,
  settings: NodeJS.ProcessEnv,
  options: { detached: boolean; onLine?: (line: string) => void },
): Promise<void> {
  if (isRunning(instance.process)) throw new Error(`${instance.name} is running`);
  const started = startProcess(
    instance.name,
    process.execPath,
    ['--import', pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href, 'src/main.ts'],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH, ...settings, HOST: LOOPBACK, PORT: String(instance.port) },
      detached: options.detached,
      onLine: options.onLine,
    },
  );
  instance.process = started.child;
  await pollUntil(started, `${instance.name} to be ready`, async () => {
    const response = await fetch(`${instance.url}/readyz`).catch(() => undefined);
    return response?.status === 200;
  });
}
