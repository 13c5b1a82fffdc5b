import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { PrivateRedis } from './redis-server.ts';

let redis: PrivateRedis;
let app: TestApp;
let closedApp: TestApp;

beforeAll(async () => {
  redis = await PrivateRedis.start();
  const env = { REDIS_URL: redis.url, RATE_LIMIT_REDIS_PREFIX: `t${randomBytes(4).toString('hex')}` };
  app = await startTestApp({ env });
  closedApp = await startTestApp({ env: { ...env, RATE_LIMIT_ON_REDIS_FAILURE: 'closed' } });
});
afterAll(async () => {
  await app.close();
  await closedApp.close();
  await redis.stop();
});

const readiness = async (gateway: TestApp) => {
  const response = await gateway.fetch('/readyz');
  return { status: response.status, body: await response.json() };
};

const PETS = '{ pets(first: 1) { edges { node { id } } } }';

it('keeps serving while Redis is down, says so in /readyz, and recovers when it is back', async () => {
  expect(await readiness(app)).toMatchObject({ status: 200, body: { status: 'ready' } });
  await redis.stop();

  const during = await app.graphql(PETS);
  expect(during.status).toBe(200);
  expect(during.headers.get('x-ratelimit-limit')).toBe('1000');
  await expect.poll(async () => (await readiness(app)).body.status, { timeout: 5000 }).toBe('degraded');
  expect((await readiness(app)).status).toBe(200);

  // Failing closed instead: not ready, and API requests are refused with 503 UNAVAILABLE.
  await expect.poll(async () => (await readiness(closedApp)).status, { timeout: 5000 }).toBe(503);
  const refused = await closedApp.graphql(PETS);
  expect(refused.status).toBe(503);
  expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'UNAVAILABLE', status: 503 });

  await redis.resume();
  await expect.poll(async () => (await readiness(app)).body.status, { timeout: 15_000 }).toBe('ready');
  expect((await app.graphql(PETS)).status).toBe(200);
}, 40_000);
