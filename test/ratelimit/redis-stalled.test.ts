import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

// Redis behind a proxy the test pauses: the connection stays open and commands get no answer, as with a
// SIGSTOPped Redis. After REDIS_BREAKER_FAILURES timed-out commands the gateway treats it as down (/readyz
// says so), and requests stop waiting REDIS_COMMAND_TIMEOUT_MS for it; once it answers a probe again, the
// gateway goes back to it.
const COMMAND_TIMEOUT_MS = 1000;
const FAILURES = 2;

let proxy: TcpProxy;
let openApp: TestApp;
let closedApp: TestApp;

beforeAll(async () => {
  proxy = await startTcpProxy({ host: '127.0.0.1', port: 6379 });
  const env = {
    REDIS_URL: `redis://${proxy.host}:${proxy.port}`,
    RATE_LIMIT_REDIS_PREFIX: `stall${randomBytes(4).toString('hex')}`,
    REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
    REDIS_BREAKER_FAILURES: String(FAILURES),
    REDIS_BREAKER_OPEN_MS: '300',
  };
  openApp = await startTestApp({ env });
  closedApp = await startTestApp({ env: { ...env, RATE_LIMIT_ON_REDIS_FAILURE: 'closed' } });
});
afterAll(async () => {
  proxy?.resume();
  await openApp?.close();
  await closedApp?.close();
  await proxy?.close();
});

const readiness = async (app: TestApp) => {
  const response = await app.fetch(`/readyz`);
  return { status: response.status, body: await response.json() };
};

const PETS = '{ pets(first: 1) { edges { node { id } } } }';

async function timedQuery(app: TestApp) {
  const started = Date.now();
  const answer = await app.graphql(PETS);
  return { ...answer, ms: Date.now() - started };
}

describe('with Redis stalled', () => {
  beforeAll(async () => {
    expect(await readiness(openApp)).toMatchObject({ status: 200, body: { status: 'ready' } });
    expect(await readiness(closedApp)).toMatchObject({ status: 200, body: { status: 'ready' } });
    proxy.pause();
    // Each of these waits for the command timeout: that is how the stall is noticed.
    for (let i = 0; i < FAILURES; i++) {
      await openApp.graphql(PETS);
      await closedApp.graphql(PETS);
    }
  });

  it('fails open: /readyz says degraded, and requests no longer wait for Redis', async () => {
    expect(await readiness(openApp)).toEqual({
      status: 200,
      body: {
        status: 'degraded',
        checks: {
          database: 'ok',
          rateLimitStore:
            'degraded: Redis is unreachable; each process enforces its own in-memory limits until it is back',
        },
      },
    });
    for (let i = 0; i < 5; i++) {
      const answer = await timedQuery(openApp);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-ratelimit-remaining')).not.toBeNull();
      // Each would take the command timeout if it still asked Redis.
      expect(answer.ms).toBeLessThan(COMMAND_TIMEOUT_MS);
    }
  });

  it('fails closed: /readyz is 503, and requests are refused 503 UNAVAILABLE at once', async () => {
    expect(await readiness(closedApp)).toMatchObject({
      status: 503,
      body: { status: 'unavailable', checks: { rateLimitStore: 'unavailable' } },
    });
    for (let i = 0; i < 5; i++) {
      const answer = await timedQuery(closedApp);
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(answer.body.errors?.[0]?.extensions).toMatchObject({ code: 'UNAVAILABLE', status: 503 });
      expect(answer.ms).toBeLessThan(COMMAND_TIMEOUT_MS);
    }
  });
});

describe('once Redis answers again', () => {
  it('goes back to it after a probe, on both', async () => {
    proxy.resume();
    for (const app of [openApp, closedApp]) {
      // A request after the breaker's open time sends the probe; the probe's answer closes the breaker.
      await expect
        .poll(
          async () => {
            await app.graphql(PETS);
            return (await readiness(app)).body.status;
          },
          { timeout: 10_000, interval: 200 },
        )
        .toBe('ready');
      expect((await app.graphql(PETS)).status).toBe(200);
    }
  });
});
