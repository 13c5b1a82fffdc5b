import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';

// `npm start` builds before it runs. Several gateways started at once from one checkout must all become ready,
// and a running gateway must keep the files it loads lazily (the /docs page) whatever a later build does.
// Run in a copy of the checkout (node_modules linked), never in this one's dist.

const root = join(import.meta.dirname, '../..');
let checkout: string;
const started: ChildProcess[] = [];

beforeAll(() => {
  checkout = mkdtempSync(join(tmpdir(), 'petstore-build-race-'));
  for (const entry of ['src', 'scripts', 'prisma', 'package.json', 'package-lock.json', 'tsconfig.json']) {
    cpSync(join(root, entry), join(checkout, entry), { recursive: true });
  }
  cpSync(join(root, 'tsconfig.build.json'), join(checkout, 'tsconfig.build.json'));
  symlinkSync(join(root, 'node_modules'), join(checkout, 'node_modules'));
});
afterAll(() => {
  // npm and the gateway under it are one process group each.
  for (const child of started) if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
  rmSync(checkout, { recursive: true, force: true });
});

/** `npm start` in the copy, on a database of its own: resolves with its URL once it listens. */
function npmStart(name: string): Promise<string> {
  const child = spawn('npm', ['start', '--silent'], {
    cwd: checkout,
    detached: true,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: '0',
      DATABASE_URL: `file:${join(checkout, `${name}.db`)}`,
      SEED_DEMO_DATA: 'false',
    },
  });
  started.push(child);
  let output = '';
  return new Promise((ready, failed) => {
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      const url = /Pet Store Gateway on (http:\/\/[\d.:]+)/.exec(output)?.[1];
      if (url) ready(url);
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    child.once('exit', (code) =>
      failed(new Error(`${name} exited with ${code} before it was ready:\n${output}`)),
    );
  });
}

/** Runs `npm run build` in the copy to its end. */
function npmBuild(): Promise<void> {
  const child = spawn('npm', ['run', '--silent', 'build'], { cwd: checkout, stdio: 'inherit' });
  return new Promise((done, failed) =>
    child.once('exit', (code) => (code === 0 ? done() : failed(new Error(`the build exited with ${code}`)))),
  );
}

const text = async (url: string) => {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  return response.text();
};

it('three gateways started at once from one checkout all become ready and serve, /docs included', async () => {
  const urls = await Promise.all(['a', 'b', 'c'].map(npmStart));
  for (const url of urls) {
    expect(await text(`${url}/healthz`)).toContain('ok');
    expect(await text(`${url}/docs`)).toContain('<html');
    expect(await text(`${url}/docs/assets/init.js`)).not.toBe('');
  }
}, 240_000);

it('a running gateway keeps serving its own /docs page after another build of changed sources', async () => {
  const running = await npmStart('d');
  const page = join(checkout, 'src/rest/reference-page/index.html');
  appendFileSync(page, '<!-- a later version -->\n');
  await npmBuild();
  const later = await npmStart('e');
  // The page is read on its first request, after the build: each gateway serves the one it was built with.
  expect(await text(`${running}/docs`)).not.toContain('a later version');
  expect(await text(`${later}/docs`)).toContain('a later version');
  expect(await text(`${running}/docs/assets/marks.css`)).not.toBe('');
}, 240_000);
