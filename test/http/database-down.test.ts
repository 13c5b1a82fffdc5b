import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { openDatabase } from '../../src/db/client.ts';
import { listen } from '../../src/http/listener.ts';
import { createPipeline } from '../../src/http/pipeline.ts';

// A gateway whose PostgreSQL does not answer (nothing listens on port 1): requests get 503 UNAVAILABLE, the
// retryable error, rather than INTERNAL, and /readyz says the gateway is not ready.
const url = 'postgresql://root@127.0.0.1:1/test';
const db = await openDatabase(url);
const pipeline = await createPipeline({ config: loadConfig({ NODE_ENV: 'test', DATABASE_URL: url }), db });
let http: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  http = await listen(pipeline.handle, '127.0.0.1', 0);
});
afterAll(async () => {
  await http.close();
  await pipeline.close();
  await db.close();
});

it('answers UNAVAILABLE on GraphQL and REST when the database cannot be reached', async () => {
  const graphql = await fetch(`${http.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ pets { edges { node { id } } } }' }),
  });
  const { errors } = await graphql.json();
  expect(errors[0]).toMatchObject({
    message: 'The database is unavailable right now; retry shortly',
    extensions: { code: 'UNAVAILABLE', status: 503 },
  });

  const rest = await fetch(`${http.url}/pets`);
  expect(rest.status).toBe(503);
  expect(await rest.json()).toEqual({
    code: 'UNAVAILABLE',
    message: 'The database is unavailable right now; retry shortly',
    status: 503,
  });
  expect(rest.headers.get('x-ratelimit-remaining')).not.toBeNull();
});

it('reports not ready without leaking the driver error', async () => {
  const response = await fetch(`${http.url}/readyz`);
  expect(response.status).toBe(503);
  expect(await response.json()).toEqual({
    status: 'unavailable',
    checks: { database: 'unavailable', rateLimitStore: 'ok' },
  });
});
