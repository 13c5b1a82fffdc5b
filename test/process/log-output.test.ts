import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type GatewayProcess, startGatewayProcess } from '../support/gateway-process.ts';
import { typescriptArgs } from '../support/typescript-process.ts';

// The log is written off the event loop, one write at a time: lines must leave in writes as large as a busy turn
// needs, or under load they wait in memory until the cap and are dropped (docs/performance.md).
describe('the log output', () => {
  /** Runs test/support/log-burst.ts with its stdout on a file: its report, and what it wrote. */
  async function burst(env: Record<string, string>) {
    // stdout is a file, not a pipe this (busy) test process drains: the count of turns then depends on how the
    // logger sizes its writes, not on how soon the reader gets to run.
    const folder = mkdtempSync(join(tmpdir(), 'log-burst-'));
    const outputPath = join(folder, 'stdout');
    const output = openSync(outputPath, 'w');
    const child = spawn(process.execPath, typescriptArgs('test/support/log-burst.ts'), {
      env: { PATH: process.env.PATH, LINES: '2000', ...env },
      stdio: ['ignore', output, 'pipe'],
    });
    closeSync(output);
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    await once(child, 'exit');
    const stdout = readFileSync(outputPath, 'utf8');
    rmSync(folder, { recursive: true, force: true });
    return { report: JSON.parse(stderr) as { turns: number; written: boolean }, stdout };
  }

  it("writes a turn's 2000 lines (about 1 MB) within a few busy turns of the event loop, every line whole", async () => {
    const { report, stdout } = await burst({});
    const lines = stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.line)).toEqual([...Array(2000).keys()]);
    expect(report.written).toBe(true);
    // One write per turn of 4 KB, as before, took about 240 turns.
    expect(report.turns).toBeLessThan(20);
  });

  it('writes readable lines (LOG_FORMAT=pretty) through the same bounded output, as fast', async () => {
    const { report, stdout } = await burst({ LOG_FORMAT: 'pretty' });
    expect(stdout).not.toContain('{"level"');
    expect(stdout.match(/^\[[\d:.]+\] INFO \(\d+\): burst$/gm)).toHaveLength(2000);
    expect([...stdout.matchAll(/^ {4}line: (\d+)$/gm)].map(([, line]) => Number(line))).toEqual([
      ...Array(2000).keys(),
    ]);
    expect(report.written).toBe(true);
    expect(report.turns).toBeLessThan(20);
  });

  describe('with WORKERS=2', () => {
    let gateway: GatewayProcess | undefined;
    afterEach(async () => {
      await gateway?.cleanUp();
      gateway = undefined;
    });

    it("relays every worker's lines whole, to the last one after a stop", async () => {
      gateway = await startGatewayProcess({ LOG_LEVEL: 'info', WORKERS: '2' });
      const running = gateway;
      const requests = 300;
      await Promise.all(
        Array.from({ length: 30 }, async () => {
          for (let i = 0; i < requests / 30; i++) {
            const response = await fetch(`${running.url}/healthz`);
            await response.arrayBuffer();
          }
        }),
      );
      await running.logLine(() => running.lines.filter((line) => line.msg === 'request').length === requests);
      const workerPids = new Set(running.lines.filter((l) => l.msg === 'worker listening').map((l) => l.pid));
      expect(workerPids.size).toBe(2);

      running.child.kill('SIGTERM');
      expect(await running.exited).toBe(0);
      // Each worker's own last line came through the primary before it exited.
      const stoppedWorkers = running.lines.filter(
        (line) => line.msg === 'stopped' && workerPids.has(line.pid),
      );
      expect(stoppedWorkers).toHaveLength(2);
    });

    // Two workers take their time to start on a busy machine.
    it("formats the workers' lines in the primary when LOG_FORMAT=pretty, one line per request", {
      timeout: 120_000,
    }, async () => {
      const folder = mkdtempSync(join(tmpdir(), 'petstore-pretty-'));
      const child = spawn(process.execPath, typescriptArgs('src/main.ts'), {
        env: {
          PATH: process.env.PATH,
          PORT: '0',
          WORKERS: '2',
          LOG_FORMAT: 'pretty',
          DATABASE_URL: `file:${join(folder, 'petstore.db')}`,
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let stdout = '';
      const exited = once(child, 'exit');
      const grew = async () => {
        if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode}:\n${stdout}`);
        await Promise.race([new Promise((wake) => child.stdout?.once('data', wake)), exited]);
      };
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
      });
      try {
        while (!/INFO \(\d+\): REST reference: +http/.test(stdout)) await grew();
        const url = /Pet Store Gateway on (http:\/\/[\d.:]+)/.exec(stdout)?.[1] as string;
        // The banner: each address on a line of its own.
        expect(stdout).toMatch(new RegExp(`INFO \\(\\d+\\): Front door: +${url}/\n`));
        expect(stdout).toMatch(new RegExp(`INFO \\(\\d+\\): GraphQL and GraphiQL: +${url}/graphql\n`));
        for (let i = 0; i < 20; i++) await (await fetch(`${url}/pets?limit=1`)).arrayBuffer();
        const requestLine =
          /^\[[\d:.]+\] INFO \((\d+)\): 200 GET \/pets 0*[\d.]+ ms {2}rest listPets {2}\S+ \S+$/gm;
        while ([...stdout.matchAll(requestLine)].length < 20) await grew();
        const workers = new Set([...stdout.matchAll(requestLine)].map(([, pid]) => pid));
        expect(workers.size).toBeGreaterThanOrEqual(1);
        expect(workers.has(String(child.pid))).toBe(false);
        expect(stdout).not.toContain('{"level"');
      } finally {
        child.kill('SIGTERM');
        await exited;
        rmSync(folder, { recursive: true, force: true });
      }
    });
  });
});
