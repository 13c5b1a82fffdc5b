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
  it("writes a turn's 2000 lines (about 1 MB) within a few busy turns of the event loop, every line whole", async () => {
    // stdout is a file, not a pipe this (busy) test process drains: the count of turns then depends on how the
    // logger sizes its writes, not on how soon the reader gets to run.
    const folder = mkdtempSync(join(tmpdir(), 'log-burst-'));
    const outputPath = join(folder, 'stdout');
    const output = openSync(outputPath, 'w');
    const child = spawn(process.execPath, typescriptArgs('test/support/log-burst.ts'), {
      env: { PATH: process.env.PATH, LINES: '2000' },
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
    const report = JSON.parse(stderr) as { turns: number; written: boolean };
    const lines = stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.line)).toEqual([...Array(2000).keys()]);
    expect(report.written).toBe(true);
    // One write per turn of 4 KB, as before, took about 240 turns.
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
  });
});
