import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPLORER_QUERY } from '../../src/graphql/yoga.ts';
import { type GatewayProcess, startGatewayProcess } from '../support/gateway-process.ts';

// The README's tour, run as written against a started gateway: each `sh` block in order in one shell (so `KEY`
// carries over), and each `text` block after it holds lines the output must contain, in order (`…` stands for
// anything within a line).

const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
const README_URL = 'http://127.0.0.1:4000';

interface Step {
  commands: string;
  expected?: string;
}

function tourSteps(): Step[] {
  const tour = /^## A five-minute tour\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
  const steps: Step[] = [];
  for (const [, language, body] of tour.matchAll(/^```(sh|text)\n([\s\S]*?)^```$/gm)) {
    if (language === 'sh') steps.push({ commands: body as string });
    else {
      const last = steps.at(-1);
      if (!last || last.expected !== undefined)
        throw new Error('a text block in the tour follows no command');
      last.expected = body;
    }
  }
  return steps;
}

/** Lines of `expected`, each found in `output` after the previous one; `…` matches anything within a line. */
function missingLines(expected: string, output: string): string[] {
  const missing: string[] = [];
  let from = 0;
  for (const line of expected.split('\n').filter((text) => text.trim() !== '')) {
    const pattern = new RegExp(
      line
        .split('…')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^\\n]*'),
      'i',
    );
    const found = pattern.exec(output.slice(from));
    if (found) from += found.index + found[0].length;
    else missing.push(line);
  }
  return missing;
}

describe("the README's five-minute tour", () => {
  let gateway: GatewayProcess;
  let directory: string;
  let databaseUrl: string;
  const steps = tourSteps();

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'petstore-tour-'));
    databaseUrl = `file:${join(directory, 'petstore.db')}`;
    gateway = await startGatewayProcess({ DATABASE_URL: databaseUrl });
  });
  afterAll(async () => {
    await gateway?.cleanUp();
    rmSync(directory, { recursive: true, force: true });
  });

  it('has commands, each with the output it shows', () => {
    expect(steps.length).toBeGreaterThanOrEqual(7);
    expect(steps.filter((step) => step.expected !== undefined).length).toBeGreaterThanOrEqual(7);
  });

  it("suggests the same key command as GraphiQL's default query", () => {
    const command = /\$\((npm run [^|)]*?)\s*\|/.exec(steps[0]?.commands ?? '')?.[1];
    expect(command).toMatch(/apikey -- create/);
    // The query's comment continues the command over lines with a backslash.
    const suggested = EXPLORER_QUERY.replace(/\s*\\\n#\s*/g, ' ');
    expect(suggested).toContain(`#   ${command}\n`);
  });

  it('runs as written and prints what it shows', () => {
    const marker = '--- next step ---';
    const script = steps.map((step) => `${step.commands}\necho; echo '${marker}'`).join('\n');
    const run = spawnSync('bash', ['-euo', 'pipefail', '-c', script.replaceAll(README_URL, gateway.url)], {
      cwd: join(import.meta.dirname, '../..'),
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    const complaints = run.stderr.split('\n').filter((line) => line.trim() && !line.startsWith('npm warn'));
    expect({ status: run.status, complaints }).toEqual({ status: 0, complaints: [] });
    const outputs = run.stdout.split(`${marker}\n`);
    steps.forEach((step, index) => {
      if (step.expected === undefined) return;
      const output = (outputs[index] ?? '').replace(/\r/g, '');
      expect({ step: step.commands, missing: missingLines(step.expected, output) }).toEqual({
        step: step.commands,
        missing: [],
      });
    });
  }, 150_000);
});
