import { Agent } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type GatewayProcess, startGatewayProcess } from '../support/gateway-process.ts';
import { get } from '../support/node-http.ts';

const categories = '/categories?limit=1';

describe('draining on SIGTERM with SHUTDOWN_DELAY_MS', () => {
  let gateway: GatewayProcess | undefined;
  afterEach(() => gateway?.cleanUp());

  it('answers /readyz 503 at once, keeps serving with Connection: close for the delay, then exits 0', async () => {
    const delayMs = 3000;
    gateway = await startGatewayProcess({ SHUTDOWN_DELAY_MS: String(delayMs) });
    const { url } = gateway;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const before = await get(url, categories, agent);
    expect([before.status, before.connection]).toEqual([200, 'keep-alive']);
    expect((await get(url, '/readyz')).status).toBe(200);

    const signalled = Date.now();
    gateway.child.kill('SIGTERM');
    await gateway.logLine((line) => line.msg.startsWith('draining:'));

    const readiness = await get(url, '/readyz');
    expect(readiness.status).toBe(503);
    expect(readiness.body).toEqual({ status: 'draining' });
    // The kept-alive connection is still served, and told to close; new connections are still accepted.
    const kept = await get(url, categories, agent);
    expect([kept.status, kept.connection]).toEqual([200, 'close']);
    const fresh = await get(url, categories);
    expect([fresh.status, fresh.connection]).toEqual([200, 'close']);
    expect((await get(url, '/healthz')).status).toBe(200);

    expect(await gateway.exited).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(delayMs);
    agent.destroy();
  });

  it('drains every worker when the primary of WORKERS=2 gets SIGTERM, and waits for the delay before killing any', async () => {
    // The delay alone is longer than SHUTDOWN_TIMEOUT_MS and the primary's 3.5 s of closing together.
    const delayMs = 7000;
    gateway = await startGatewayProcess({
      WORKERS: '2',
      SHUTDOWN_DELAY_MS: String(delayMs),
      SHUTDOWN_TIMEOUT_MS: '1000',
    });
    const running = gateway;
    const listening = () => running.lines.filter((line) => line.msg === 'worker listening');
    await running.logLine(() => listening().length === 2);

    const signalled = Date.now();
    running.child.kill('SIGTERM');
    const draining = () => running.lines.filter((line) => line.msg.startsWith('draining:'));
    await running.logLine(() => draining().length === 2);

    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await get(running.url, '/readyz'));
    expect(answers.map((answer) => answer.status)).toEqual([503, 503, 503, 503]);
    const pids = await Promise.all(
      answers.map(
        async ({ requestId }) => (await running.logLine((line) => line.reqId === requestId)).pid as number,
      ),
    );
    expect(new Set(pids)).toEqual(new Set(listening().map((line) => line.pid)));
    expect((await get(running.url, categories)).connection).toBe('close');

    expect(await running.exited).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(delayMs);
    // Not killed: no error but the request lines of the 503s.
    expect(running.lines.filter((line) => line.level === 'error' && line.msg !== 'request')).toEqual([]);
  });
});
