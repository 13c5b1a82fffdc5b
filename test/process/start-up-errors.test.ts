// What a person sees when the gateway cannot start, or asks a CLI for help: one line naming what failed and
// what to set (never a stack, never the password), and exit statuses scripts can rely on.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typescriptArgs } from '../support/typescript-process.ts';

interface Exit {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one of the project's entry points to its end, in a minimal environment plus `env`. */
function runToExit(file: string, args: string[], env: Record<string, string>): Promise<Exit> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...typescriptArgs(file), ...args],
      { env: { PATH: process.env.PATH, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

const PASSWORD = 's3cretPW';
const workdir = mkdtempSync(join(tmpdir(), 'petstore-start-up-'));
const start = (env: Record<string, string>) =>
  runToExit('src/main.ts', [], { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env });

/** Exactly one line on stderr, with no stack frame. */
function expectOneLine(exit: Exit, pattern: RegExp) {
  expect(exit.code, exit.stderr).toBe(1);
  const lines = exit.stderr.trimEnd().split('\n');
  expect(lines, exit.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(exit.stderr).not.toMatch(/\n\s+at |errno|syscall/);
  expect(exit.stderr + exit.stdout).not.toContain(PASSWORD);
}

const listening = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );

describe('start-up', () => {
  let taken: Server;
  let takenPort: number;
  let closedPort: number;
  beforeAll(async () => {
    taken = createServer();
    takenPort = await listening(taken);
    const probe = createServer();
    closedPort = await listening(probe);
    await new Promise((done) => probe.close(done));
  });
  afterAll(() => new Promise((done) => taken.close(done)));

  it('a taken port: one line naming the address and PORT/HOST, exit 1', async () => {
    const exit = await start({ PORT: String(takenPort), DATABASE_URL: `file:${join(workdir, 'port.db')}` });
    expectOneLine(
      exit,
      new RegExp(
        `^Cannot listen on 127\\.0\\.0\\.1:${takenPort}: the address is already in use .*PORT \\(and HOST\\)`,
      ),
    );
  });

  it('PostgreSQL not answering: one line naming host, port, database and user, not the password', async () => {
    const exit = await start({
      DATABASE_URL: `postgresql://petuser:${PASSWORD}@127.0.0.1:${closedPort}/petstore`,
    });
    expectOneLine(
      exit,
      new RegExp(
        `^Cannot use the PostgreSQL database "petstore" at 127\\.0\\.0\\.1:${closedPort} as user "petuser": nothing answers there \\(connection refused\\).*Check DATABASE_URL\\.$`,
      ),
    );
  });

  it('a PostgreSQL database that does not exist: one line naming it', async () => {
    const name = `petstore_missing_${process.pid}`;
    const exit = await start({ DATABASE_URL: `postgresql://postgres:${PASSWORD}@127.0.0.1:5432/${name}` });
    expectOneLine(
      exit,
      new RegExp(
        `^Cannot use the PostgreSQL database "${name}" at 127\\.0\\.0\\.1:5432 as user "postgres": the database does not exist`,
      ),
    );
  });

  it('a PostgreSQL host that does not resolve: one line naming it', async () => {
    const exit = await start({
      DATABASE_URL: `postgresql://postgres:${PASSWORD}@petstore-db.invalid:5432/petstore`,
    });
    expectOneLine(
      exit,
      /^Cannot use the PostgreSQL database "petstore" at petstore-db\.invalid:5432 .*: the host name/,
    );
  });

  it('a SQLite path whose directory cannot be made, and a file that is not a database: one line each', async () => {
    const file = join(workdir, 'a-file');
    writeFileSync(file, 'not a directory, not a database');
    const underFile = await start({ DATABASE_URL: `file:${file}/data/petstore.db` });
    expectOneLine(
      underFile,
      /^Cannot open the SQLite database .*a-file\/data\/petstore\.db \(DATABASE_URL=file:.*\): a part of its directory path is a file/,
    );
    const notDatabase = await start({ DATABASE_URL: `file:${file}` });
    expectOneLine(
      notDatabase,
      /^Cannot open the SQLite database .*a-file .*: the file is not a SQLite database/,
    );
  });
});

describe('the CLIs', () => {
  const env = { DATABASE_URL: `file:${join(workdir, 'cli.db')}`, DOMAINS_CONFIG: join(workdir, 'none.json') };

  it.each([
    ['apikey', 'src/keys/cli.ts', /^Usage:\n {2}npm run --silent apikey -- create/],
    ['documents', 'src/documents/cli.ts', /^Usage:\n {2}npm run --silent documents -- add/],
    ['domains', 'src/domains/cli.ts', /^Usage:\n {2}npm run --silent domains -- verify <domain>/],
  ])('%s: --help, -h and help print the usage on stdout and exit 0', async (_, file, usage) => {
    for (const help of ['--help', '-h', 'help']) {
      const exit = await runToExit(file, [help], env);
      expect({ help, code: exit.code, stderr: exit.stderr }).toEqual({ help, code: 0, stderr: '' });
      expect(exit.stdout).toMatch(usage);
      expect(exit.stdout).toMatch(/Exit status: 0/);
    }
  });

  it.each([
    ['apikey', 'src/keys/cli.ts', /Usage:\n {2}npm run --silent apikey/],
    ['documents', 'src/documents/cli.ts', /Usage:\n {2}npm run --silent documents/],
    ['domains', 'src/domains/cli.ts', /Usage:\n {2}npm run --silent domains/],
  ])('%s: no command or an unknown one prints the usage on stderr and exits 2', async (_, file, usage) => {
    for (const args of [[], ['frobnicate'], ['--frobnicate']]) {
      const exit = await runToExit(file, args, env);
      expect({ args, code: exit.code, stdout: exit.stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(exit.stderr).toMatch(usage);
    }
  });
});
