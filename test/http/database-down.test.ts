import { afterAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { openDatabase } from '../../src/db/client.ts';
import { createPipeline } from '../../src/http/pipeline.ts';
import { injectInto } from '../support/inject.ts';
import { requestHelpers } from '../support/requests.ts';

// A gateway whose PostgreSQL does not answer (nothing listens on port 1): requests get 503 UNAVAILABLE, the
// retryable error, rather than INTERNAL, and /readyz says the gateway is not ready.
const url = 'postgresql://root@127.0.0.1:1/test';
const db = await openDatabase(url);
const pipeline = await createPipeline({ config: loadConfig({ NODE_ENV: 'test', DATABASE_URL: url }), db });
const { get, graphql } = requestHelpers(injectInto(pipeline.handle));
afterAll(async () => {
  await pipeline.close();
  await db.close();
});

it('answers UNAVAILABLE on GraphQL and REST when the database cannot be reached', async () => {
  const { errors } = (await graphql('{ pets { edges { node { id } } } }')).body;
  expect(errors?.[0]).toMatchObject({
    message: 'The database is unavailable right now; retry shortly',
    extensions: { code: 'UNAVAILABLE', status: 503 },
  });

  const rest = await get('/pets');
  expect(rest.status).toBe(503);
  expect(rest.body).toEqual({
    code: 'UNAVAILABLE',
    message: 'The database is unavailable right now; retry shortly',
    status: 503,
  });
  expect(rest.headers.get('x-ratelimit-remaining')).not.toBeNull();
});

it('reports not ready without leaking the driver error', async () => {
  const response = await get('/readyz');
  expect(response.status).toBe(503);
  expect(response.body).toEqual({
    status: 'unavailable',
    checks: { database: 'unavailable', rateLimitStore: 'ok' },
  });
});
