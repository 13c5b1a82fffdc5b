import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import type { Db } from '../../src/db/client.ts';
import { buildSchema } from '../../src/graphql/schema.ts';
import { apiStages } from '../../src/graphql/yoga.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { useTestApp } from '../support/app.ts';
import { writeDomainsFile } from '../support/domains-file.ts';
import { getWithHost } from '../support/host-request.ts';

// The order of the stages, seen from outside: each test makes two stages disagree about a request and checks
// which one answered. The anonymous quota is one request a minute, so that the rate limit refuses at once.
const domainsFile = writeDomainsFile();
const MAX_BODY_BYTES = 1000;
const oversized = JSON.stringify({
  query: `{ pets { edges { node { id } } } } #${'x'.repeat(MAX_BODY_BYTES)}`,
});
// Removed once the app is closed (the hooks after the tests run last registered first).
afterAll(() => domainsFile.remove());
const app = useTestApp({
  http: true,
  env: {
    DOMAINS_CONFIG: domainsFile.file,
    RATE_LIMIT_PLANS: '{"free":{"perMinute":1}}',
    GRAPHQL_MAX_BODY_BYTES: String(MAX_BODY_BYTES),
    REST_MAX_BODY_BYTES: String(MAX_BODY_BYTES),
  },
});
beforeAll(async () => {
  // The anonymous caller (this address) spends its one request.
  expect((await app.fetch('/pets')).status).toBe(200);
  expect((await app.fetch('/pets')).status).toBe(429);
});

const get = (host: string, path: string) => getWithHost(new URL(app.url).port, host, path);

describe("the HTTP pipeline's stages", () => {
  it('observes every request first, the ones host routing refuses included', async () => {
    const refused = await get('elsewhere.example.org', '/pets');
    expect(refused.status).toBe(421);
    expect(refused.headers['x-request-id']).toBeTruthy();
  });

  it('routes by host before the ops endpoints', async () => {
    expect((await get('elsewhere.example.org', '/healthz')).status).toBe(421);
    expect((await get('localhost', '/healthz')).status).toBe(200);
  });

  it('answers CORS preflights after host routing, before the ops endpoints and the API (so uncounted)', async () => {
    const preflight = (host: string, path: string) =>
      getWithHost(
        new URL(app.url).port,
        host,
        path,
        { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
        'OPTIONS',
      );
    expect((await preflight('elsewhere.example.org', '/pets')).status).toBe(421);
    // The ops endpoints answer OPTIONS 405, and the API would refuse this spent caller 429.
    expect((await preflight('localhost', '/healthz')).status).toBe(204);
    expect((await preflight('localhost', '/pets')).status).toBe(204);
    expect((await preflight('localhost', '/graphql')).status).toBe(204);
  });

  it('answers the ops endpoints before the API, so without a rate limit', async () => {
    for (const path of ['/', '/favicon.ico', '/healthz', '/openapi.json', '/docs']) {
      const response = await fetch(`${app.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('x-ratelimit-limit'), path).toBeNull();
    }
  });
});

describe("the API's stages (Yoga's plugins)", () => {
  const post = (path: string, body: string, contentType = 'application/json') =>
    fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });

  it('refuses a caller over its quota before anything reads the body', async () => {
    for (const [what, response] of [
      ['GraphQL, a body over the limit', await post('/graphql', oversized)],
      ['GraphQL, a form body', await post('/graphql', 'query={pets{edges{cursor}}}', 'text/plain')],
      ['GraphQL, a body that is not JSON', await post('/graphql', '{"query":')],
      ['REST, a body over the limit', await post('/pets', oversized)],
      ['REST, a body that is not JSON', await post('/pets', '{"name":')],
    ] as const) {
      const body = await response.json();
      expect(response.status, what).toBe(429);
      expect(body.code ?? body.errors?.[0]?.extensions?.code, what).toBe('RATE_LIMITED');
    }
  });

  it('counts REST requests before the REST adapter answers them', async () => {
    const response = await fetch(`${app.url}/store/inventory`);
    expect(response.status).toBe(429);
    expect(await response.json()).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('names its stages in order: the rate limit before the body is read, the REST adapter last', () => {
    const config = loadConfig({});
    const stages = apiStages({
      prisma: {} as Db,
      schema: buildSchema(),
      limits: config.graphqlLimits,
      production: false,
      logger: createLogger('silent'),
      rateLimit: {},
      idempotency: {},
      rest: {},
    });
    expect(Object.keys(stages)).toEqual([
      'operation names',
      'tracing',
      'HTTP caching',
      'rate limit',
      'CSRF prevention',
      'body limit',
      'trusted documents',
      'nesting depth',
      'query limits',
      'defer and stream',
      'client error codes',
      'hide suggestions',
      'writes need a key',
      'scopes',
      'entity representations',
      'field limits',
      'subscription cap',
      'server-sent events',
      'idempotency',
      'input rules',
      'Int64 JSON',
      'response cache',
      'list plans',
      'REST adapter',
      'compression',
    ]);
  });
});
