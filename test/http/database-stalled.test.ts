import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { startPipelineOn } from '../support/pipeline-on.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

// PostgreSQL behind a proxy the test pauses (as if the server were SIGSTOPped) or drops: every path answers 503
// UNAVAILABLE with Retry-After, within the configured timeouts, and /readyz within about 2 s.
const STATEMENT_TIMEOUT_MS = 1000;
const CONNECT_TIMEOUT_MS = 1000;
// What a stalled call may take at most: the client gives up 1 s after the statement timeout (db/client.ts),
// with a wide margin for a loaded machine. Without the timeouts, the requests wait for ever.
const BOUND_MS = STATEMENT_TIMEOUT_MS + 1000 + 4000;

let database: TestDatabase;
let proxy: TcpProxy;
let gateway: Awaited<ReturnType<typeof startPipelineOn>>;

beforeAll(async () => {
  database = await createTestDatabase({}, 'postgresql');
  const url = new URL(database.url);
  proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
  url.host = `${proxy.host}:${proxy.port}`;
  const env = {
    DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
    DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
  };
  gateway = await startPipelineOn(database, env, url.toString());
});
afterAll(async () => {
  proxy?.resume();
  await gateway?.close();
  await proxy?.close();
  await database?.drop();
});

// A keyed request whose key is no longer cached fails at the key's lookup, with a message of its own.
const UNAVAILABLE = {
  code: 'UNAVAILABLE',
  message: expect.stringMatching(
    /^(The database is unavailable right now|The API key cannot be checked right now); retry shortly$/,
  ),
  status: 503,
};

/** Every kind of request that reaches the database, with what it answers once the database fails. */
const paths = [
  ['a REST read', () => rest('GET', '/pets?limit=1')],
  ['a REST write with a key', () => rest('POST', '/categories', { name: 'Stalled' }, gateway.apiKey)],
  ['a GraphQL read', () => graphql('{ pets(first: 1) { edges { node { id } } } }')],
  [
    'a GraphQL mutation with a key',
    () => graphql('mutation { createCategory(input: { name: "S" }) { id } }', gateway.apiKey),
  ],
] as const;

async function rest(method: string, path: string, body?: unknown, key: string | null = null) {
  const answer = await gateway.send(method, path, { body, key });
  return { status: answer.status, retryAfter: answer.headers.get('retry-after'), error: answer.body };
}

async function graphql(query: string, key: string | null = null) {
  const answer = await gateway.graphql(query, undefined, { key });
  const [error] = answer.body.errors ?? [];
  const { code, status } = error?.extensions ?? {};
  return {
    status: answer.status,
    retryAfter: answer.headers.get('retry-after'),
    error: { code, status, message: error?.message },
  };
}

async function timed<T>(work: () => Promise<T>): Promise<T & { ms: number }> {
  const started = Date.now();
  const result = await work();
  return { ...result, ms: Date.now() - started };
}

describe('with PostgreSQL stalled', () => {
  beforeAll(async () => {
    for (const [, request] of paths) await request();
    proxy.pause();
  });
  afterAll(() => proxy.resume());

  it.each(paths)('%s answers 503 UNAVAILABLE with Retry-After within the timeouts', async (_, request) => {
    const answer = await timed(request);
    expect(answer.error).toEqual(UNAVAILABLE);
    expect(answer.ms).toBeLessThan(BOUND_MS);
    // A GraphQL field error leaves the response at 200 (README); a request refused whole is 503.
    if (answer.status === 503) expect(answer.retryAfter).toBe('1');
    else expect(answer.status).toBe(200);
  });

  it('has /readyz answer 503 within about 2 s, naming the check that did not answer', async () => {
    const started = Date.now();
    const response = await gateway.get('/readyz', { key: null });
    expect(Date.now() - started).toBeLessThan(2000 + 1500);
    expect(response.status).toBe(503);
    const { status, checks } = response.body;
    expect(status).toBe('unavailable');
    // Timed out by /readyz itself, or failed past the database's own timeouts: whichever comes first.
    expect(['timed out', 'unavailable']).toContain(checks.database);
    expect(checks.rateLimitStore).toBe('ok');
  });
});

describe('once PostgreSQL answers again', () => {
  it('serves as before', async () => {
    proxy.resume();
    await expect
      .poll(async () => (await rest('GET', '/pets?limit=1')).status, { timeout: BOUND_MS, interval: 200 })
      .toBe(200);
    expect((await gateway.get('/readyz', { key: null })).status).toBe(200);
  });
});

describe('with the connections to PostgreSQL dropped under the running gateway', () => {
  it.each(paths)('%s answers 503 UNAVAILABLE, not 500', async (_, request) => {
    await request();
    proxy.dropConnections();
    const answer = await request();
    expect(answer.error).toEqual(UNAVAILABLE);
  });
});
