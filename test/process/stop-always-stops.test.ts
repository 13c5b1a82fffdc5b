import { Agent } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmptyTestDatabase, type EmptyTestDatabase } from '../support/databases.ts';
import { type GatewayProcess, startGatewayProcess } from '../support/gateway-process.ts';
import { get } from '../support/node-http.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

// SIGTERM ends the gateway within SHUTDOWN_TIMEOUT_MS + 5 s whatever it waits for: a stdout nobody reads (a
// parent that died, or stopped reading), a database that does not answer, requests in flight, workers.
const SHUTDOWN_TIMEOUT_MS = 1000;
const BOUND_MS = SHUTDOWN_TIMEOUT_MS + 5000;

/** Logs enough request lines (about 250 bytes each) to fill the pipe's buffer (some 200 KiB) over. */
async function logPlenty(url: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 10 });
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      for (let i = 0; i < 100; i++) await get(url, '/healthz', agent);
    }),
  );
  agent.destroy();
}

/** Milliseconds from SIGTERM to the process's exit, or Infinity past the bound (with a margin to see it). */
async function stopTime(gateway: GatewayProcess): Promise<number> {
  const signalled = Date.now();
  gateway.child.kill('SIGTERM');
  const timedOut = new Promise<'hung'>((resolve) => setTimeout(resolve, BOUND_MS + 3000, 'hung').unref());
  const outcome = await Promise.race([gateway.exited, timedOut]);
  return outcome === 'hung' ? Number.POSITIVE_INFINITY : Date.now() - signalled;
}

// Each test starts a gateway (15 s and more on a loaded machine) before it measures anything.
describe('SIGTERM stops the gateway whatever it waits for', { timeout: 90_000 }, () => {
  let gateway: GatewayProcess | undefined;
  let proxy: TcpProxy | undefined;
  let database: EmptyTestDatabase | undefined;
  afterEach(async () => {
    await gateway?.cleanUp();
    await proxy?.close();
    await database?.drop();
    gateway = proxy = database = undefined;
  });

  const logged = { LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) };

  it('with stdout a pipe nobody reads any more', async () => {
    gateway = await startGatewayProcess(logged);
    gateway.child.stdout?.pause();
    await logPlenty(gateway.url);
    expect(await stopTime(gateway)).toBeLessThan(BOUND_MS);
  });

  it('with stdout a pipe whose reading end is closed', async () => {
    gateway = await startGatewayProcess(logged);
    gateway.child.stdout?.destroy();
    await logPlenty(gateway.url);
    expect(await stopTime(gateway)).toBeLessThan(BOUND_MS);
    expect(gateway.child.exitCode).toBe(0);
  });

  it('with WORKERS=2 and stdout a pipe nobody reads any more', async () => {
    gateway = await startGatewayProcess({ ...logged, WORKERS: '2' });
    const running = gateway;
    await running.logLine(() => running.lines.filter((line) => line.msg === 'worker listening').length === 2);
    gateway.child.stdout?.pause();
    await logPlenty(gateway.url);
    expect(await stopTime(gateway)).toBeLessThan(BOUND_MS);
  });

  it('with PostgreSQL stalled and a request waiting on it: the request gets 503 UNAVAILABLE at the cut-off', async () => {
    database = await createEmptyTestDatabase('postgresql');
    const url = new URL(database.url);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
    url.host = `${proxy.host}:${proxy.port}`;
    // A statement timeout past the cut-off: the request is still waiting when the stop cuts it off.
    gateway = await startGatewayProcess({
      ...logged,
      DATABASE_URL: url.toString(),
      DATABASE_STATEMENT_TIMEOUT_MS: '60000',
    });
    gateway.child.stdout?.pause();
    expect((await get(gateway.url, '/pets?limit=1')).status).toBe(200);
    proxy.pause();
    const waiting = get(gateway.url, '/pets?limit=1');
    await new Promise((resolve) => setTimeout(resolve, 200));

    const stopped = stopTime(gateway);
    const answer = await waiting;
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ code: 'UNAVAILABLE', status: 503 });
    expect(await stopped).toBeLessThan(BOUND_MS);
  });
});
