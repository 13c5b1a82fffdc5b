import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const workdir = mkdtempSync(join(tmpdir(), 'petstore-first-run-'));
afterAll(() => rmSync(workdir, { recursive: true, force: true }));

/** Starts `src/main.ts` as `npm start` does, in an empty directory, and waits for its address. */
async function start(): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(
    process.execPath,
    [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'src/main.ts')],
    {
      cwd: workdir,
      env: { PATH: process.env.PATH, PORT: '0' },
    },
  );
  let output = '';
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      const match = /on (http:\/\/[\d.:]+)/.exec(output);
      if (match?.[1]) resolveUrl(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
  return { child, url, output: () => output };
}

async function stop(child: ChildProcess) {
  const exit = new Promise<number | null>((done) => child.once('exit', done));
  child.kill('SIGTERM');
  return exit;
}

const demoPets = async (url: string) => {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ pets(first: 100) { edges { node { name category { name } } } } }' }),
  });
  return (await response.json()).data.pets.edges.length as number;
};

it('creates, migrates and seeds ./data on first start; a second start changes nothing', async () => {
  const first = await start();
  expect(existsSync(join(workdir, 'data/petstore.db'))).toBe(true);
  const seeded = await demoPets(first.url);
  expect(seeded).toBeGreaterThan(0);
  expect(await stop(first.child)).toBe(0);

  const second = await start();
  expect(second.output()).toMatch(/0 migration\(s\) applied/);
  expect(second.output()).not.toMatch(/seeded/);
  expect(await demoPets(second.url)).toBe(seeded);
  expect(await stop(second.child)).toBe(0);
}, 60_000);

it('refuses bad configuration with a clear message', async () => {
  const child = spawn(
    process.execPath,
    [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'src/main.ts')],
    {
      cwd: workdir,
      env: { PATH: process.env.PATH, PORT: 'eighty' },
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise((done) => child.once('exit', done));
  expect(code).toBe(1);
  expect(stderr).toContain('PORT="eighty": must be a whole number from 0 to 65535');
}, 30_000);
