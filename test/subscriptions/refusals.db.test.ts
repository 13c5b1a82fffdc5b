import type { ExecutionResult } from 'graphql';
import { createClient, NetworkError } from 'graphql-sse';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/observability/logger.ts';
import { useTestApp } from '../support/app.ts';
import { type Subscription, subscribe } from '../support/event-stream.ts';
import { createTestKey } from '../support/keys.ts';

// A subscription refused before its stream begins. A permanent refusal is reported on an accepted stream (200
// text/event-stream, one `next` event with the error, then `complete`), as GraphQL over SSE wants, so that
// graphql-sse clients do not retry it and browsers' EventSource can read it; a rate-limit refusal keeps 429 with
// Retry-After and the rate-limit headers, so that clients back off. None is a 5xx or logged as an error.

const logged: { level: string; msg: string }[] = [];
const open: Subscription[] = [];
const logger = pino(
  { level: 'info', formatters: { level: (label) => ({ level: label }) } },
  { write: (line: string) => logged.push(JSON.parse(line)) },
) as unknown as Logger;
const app = useTestApp({ http: true, logger, env: { MAX_SUBSCRIPTIONS: '{"free":1}' } });
// Before the app closes (the hooks after the tests run last registered first).
afterAll(() => Promise.all(open.map((stream) => stream.close())));

async function watch(...args: Parameters<typeof subscribe>) {
  const stream = await subscribe(...args);
  open.push(stream);
  return stream;
}

const serverErrors = async () =>
  (await (await fetch(`${app.url}/metrics`)).text())
    .split('\n')
    .filter((line) => line.startsWith('petstore_http_requests_total') && /status="5\d\d"/.test(line));

describe('a subscription refused for good', () => {
  const cases: [string, string, { variables?: Record<string, unknown>; key?: string }, string][] = [
    [
      'a pet that does not exist',
      'subscription { inventoryChanged(petId: 99999) { quantity } }',
      {},
      'NOT_FOUND',
    ],
    [
      'an order the caller may not read',
      'subscription { orderChanged(id: 99999) { id } }',
      { key: undefined },
      'NOT_FOUND',
    ],
    ['an unknown field', 'subscription { inventoryChanged { nope } }', {}, 'VALIDATION_FAILED'],
    ['a bad argument', 'subscription { inventoryChanged(petId: "x") { quantity } }', {}, 'VALIDATION_FAILED'],
    ['a syntax error', 'subscription { inventoryChanged(', {}, 'VALIDATION_FAILED'],
    [
      'an unknown API key',
      'subscription { inventoryChanged { quantity } }',
      { key: 'psk_unknown' },
      'INVALID_API_KEY',
    ],
  ];
  for (const method of ['GET', 'POST'] as const) {
    it.each(cases)(
      `over ${method}: %s answers 200 text/event-stream, one next with the error, then complete`,
      async (_name, query, options, code) => {
        const stream = await watch(app.url, query, { key: app.apiKey, ...options, method });
        await stream.ended;
        expect(stream.response.status).toBe(200);
        expect(stream.response.headers.get('content-type')).toBe('text/event-stream');
        expect(stream.response.headers.get('content-encoding')).toBeNull();
        expect(stream.events.filter((e) => e.event !== 'comment').map((e) => e.event)).toEqual([
          'next',
          'complete',
        ]);
        expect(stream.next()[0].errors[0].extensions).toMatchObject({ code, status: expect.any(Number) });
        expect(stream.next()[0].errors[0].extensions.status).toBeGreaterThanOrEqual(400);
      },
    );
  }

  it('counts no 5xx and logs no error', async () => {
    expect(await serverErrors()).toEqual([]);
    expect(logged.filter((line) => line.level === 'error' || line.level === 'fatal')).toEqual([]);
  });
});

describe('a subscription refused by a rate limit', () => {
  it('past the cap of open ones: 429 TOO_MANY_SUBSCRIPTIONS with Retry-After and the rate-limit headers', async () => {
    const free = await createTestKey(app.prisma, 'free');
    const query = 'subscription { inventoryChanged { quantity } }';
    expect((await watch(app.url, query, { key: free })).response.status).toBe(200);
    for (const method of ['GET', 'POST'] as const) {
      const refused = await watch(app.url, query, { key: free, method });
      await refused.ended;
      expect(refused.response.status).toBe(429);
      expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.response.headers.get('x-ratelimit-limit')).toBe('60');
      expect(refused.response.headers.get('x-ratelimit-remaining')).not.toBeNull();
      expect(refused.response.headers.get('content-encoding')).toBeNull();
      expect(refused.next()[0].errors[0].extensions).toEqual({ code: 'TOO_MANY_SUBSCRIPTIONS', status: 429 });
    }
  });

  it('over the request limit: 429 RATE_LIMITED with Retry-After', async () => {
    const free = await createTestKey(app.prisma, 'free');
    const query = 'subscription { inventoryChanged(petId: 99999) { quantity } }';
    let refused: Subscription | undefined;
    for (let i = 0; i < 70 && !refused; i++) {
      const stream = await watch(app.url, query, { key: free });
      await stream.ended;
      if (stream.response.status === 429) refused = stream;
    }
    expect(refused?.response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused?.next()[0].errors[0].extensions.code).toBe('RATE_LIMITED');
  });

  it('counts no 5xx and logs no error', async () => {
    expect(await serverErrors()).toEqual([]);
    expect(logged.filter((line) => line.level === 'error' || line.level === 'fatal')).toEqual([]);
  });
});

describe('with the graphql-sse client', () => {
  /** Runs one subscription to its end with graphql-sse's client, without its retries: what its sink saw. */
  function run(query: string, key?: string) {
    const client = createClient({
      url: `${app.url}/graphql`,
      headers: key ? { 'x-api-key': key } : {},
      retryAttempts: 0,
    });
    const seen: { next: ExecutionResult[]; error?: unknown; completed: boolean } = {
      next: [],
      completed: false,
    };
    return new Promise<typeof seen>((done) => {
      client.subscribe(
        { query },
        {
          next: (result) => seen.next.push(result as ExecutionResult),
          error: (error) => {
            seen.error = error;
            done(seen);
          },
          complete: () => {
            seen.completed = true;
            done(seen);
          },
        },
      );
    }).finally(() => client.dispose());
  }

  it('reads a permanent refusal as the operation’s result, and does not retry it', async () => {
    const seen = await run('subscription { inventoryChanged(petId: 99999) { quantity } }', app.apiKey);
    expect(seen.error).toBeUndefined();
    expect(seen.completed).toBe(true);
    expect(seen.next.map((result) => result.errors?.[0]?.extensions)).toEqual([
      { code: 'NOT_FOUND', status: 404 },
    ]);
  });

  it('reads a rate-limit refusal as a failed request, its 429 to back off from', async () => {
    const free = await createTestKey(app.prisma, 'free');
    const query = 'subscription { inventoryChanged { quantity } }';
    expect((await watch(app.url, query, { key: free })).response.status).toBe(200);
    const seen = await run(query, free);
    expect(seen.error).toBeInstanceOf(NetworkError);
    expect((seen.error as NetworkError).response?.status).toBe(429);
  });
});
