import { describe, expect, it } from 'vitest';
import { type SendOptions, useTestApp } from '../support/app.ts';
import { collectingLogger } from '../support/log-lines.ts';

// Every answer's log line (and its metrics) names the API and operation the request asked for, whichever stage
// answered it: a refusal by the rate limit or for a key is still that operation's.
const { logger, lines } = collectingLogger();
const app = useTestApp({
  env: { RATE_LIMIT_PLANS: '{"free":{"perMinute":2}}', CORS_ORIGINS: 'https://app.example.com' },
  logger,
});

/** The labels of the log line of a request (without a key unless given). */
async function labelOf(
  path: string,
  { method = 'GET', key = null, ...options }: SendOptions & { method?: string } = {},
) {
  const response = await app.send(method, path, { key, ...options });
  const id = response.headers.get('x-request-id');
  await expect.poll(() => lines.some((line) => line.reqId === id)).toBe(true);
  const line = lines.find((entry) => entry.reqId === id) as {
    status: number;
    api: string;
    operation: string;
  };
  return { status: line.status, api: line.api, operation: line.operation };
}

describe('the request log line', () => {
  it('names the REST operation of a request refused before the REST adapter ran', async () => {
    expect(await labelOf('/pets', { method: 'POST', key: 'psk_unknown', body: '{}' })).toEqual({
      status: 401,
      api: 'rest',
      operation: 'createPet',
    });
    expect(await labelOf('/pets', { method: 'POST', body: '{"name":"A","categoryId":1}' })).toEqual({
      status: 401,
      api: 'rest',
      operation: 'createPet',
    });
    expect(await labelOf('/pets/1', { method: 'DELETE', key: app.apiKey })).toMatchObject({
      api: 'rest',
      operation: 'deletePet',
    });
  });

  it('names the GraphQL API of a request refused before its document was read', async () => {
    const body = { query: '{ pets { edges { cursor } } }' };
    // 401, or 429 once the other tests have spent the address's anonymous quota.
    expect(await labelOf('/graphql', { method: 'POST', key: 'psk_unknown', body })).toMatchObject({
      api: 'graphql',
      operation: 'unknown',
    });
  });

  it('names the operation of a request over its quota', async () => {
    let last = { status: 0, api: '', operation: '' };
    for (let i = 0; i < 3; i++) last = await labelOf('/store/inventory');
    expect(last).toEqual({ status: 429, api: 'rest', operation: 'listInventory' });
  });

  it('names preflights, the ops paths, and what matches no route', async () => {
    const preflight = {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
    };
    expect(await labelOf('/pets', preflight)).toEqual({ status: 204, api: 'other', operation: 'preflight' });
    expect(await labelOf('/')).toEqual({ status: 200, api: 'ops', operation: '/' });
    expect(await labelOf('/nothing-here')).toMatchObject({ api: 'other', operation: 'unmatched' });
  });
});
