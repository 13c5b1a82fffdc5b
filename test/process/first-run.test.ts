import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { type GatewayProcess, startGatewayProcess } from '../support/gateway-process.ts';

const workdir = mkdtempSync(join(tmpdir(), 'petstore-first-run-'));
afterAll(() => rmSync(workdir, { recursive: true, force: true }));

const demoPets = async (gateway: GatewayProcess) => {
  const response = await fetch(`${gateway.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ pets(first: 100) { edges { node { name category { name } } } } }' }),
  });
  return (await response.json()).data.pets.edges.length as number;
};

async function stop(gateway: GatewayProcess) {
  gateway.child.kill('SIGTERM');
  const code = await gateway.exited;
  await gateway.cleanUp();
  return code;
}

it('creates, migrates and seeds ./data on first start; a second start changes nothing', async () => {
  const first = await startGatewayProcess({}, { workdir });
  expect(existsSync(join(workdir, 'data/petstore.db'))).toBe(true);
  expect(first.lines.some((line) => line.msg === 'seeded the demo catalogue')).toBe(true);
  const seeded = await demoPets(first);
  expect(seeded).toBeGreaterThan(0);
  expect(await stop(first)).toBe(0);

  const second = await startGatewayProcess({}, { workdir });
  expect(second.lines.some((line) => /0 migration\(s\) applied/.test(line.msg))).toBe(true);
  expect(second.lines.some((line) => line.msg === 'seeded the demo catalogue')).toBe(false);
  expect(await demoPets(second)).toBe(seeded);
  expect(await stop(second)).toBe(0);
}, 60_000);

it('refuses bad configuration with a clear message and exit status 1', async () => {
  await expect(startGatewayProcess({ PORT: 'eighty' }, { workdir })).rejects.toThrow(
    /exited with 1:[\s\S]*PORT="eighty": must be a whole number from 0 to 65535/,
  );
}, 30_000);
