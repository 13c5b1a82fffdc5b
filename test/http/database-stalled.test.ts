import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { listen } from '../../src/http/listener.ts';
import { createPipeline, type Pipeline } from '../../src/http/pipeline.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { createTestKey } from '../support/keys.ts';
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
let db: Database;
let pipeline: Pipeline;
let http: Awaited<ReturnType<typeof listen>>;
let apiKey: string;

beforeAll(async () => {
  database = await createTestDatabase({}, 'postgresql');
  apiKey = await createTestKey(database.db.prisma, 'business');
  const url = new URL(database.url);
  proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
  url.host = `${proxy.host}:${proxy.port}`;
  const env = {
    NODE_ENV: 'test',
    DATABASE_URL: url.toString(),
    DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
    DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
  };
  const config = loadConfig(env);
  db = await openDatabase(url.toString(), { timeouts: config.databaseTimeouts });
  pipeline = await createPipeline({ config, db });
  http = await listen(pipeline.handle, '127.0.0.1', 0);
});
afterAll(async () => {
  await http?.close(0);
  await pipeline?.close();
  proxy?.resume();
  await db?.close();
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
  ['a REST write with a key', () => rest('POST', '/categories', { name: 'Stalled' }, apiKey)],
  ['a GraphQL read', () => graphql('{ pets(first: 1) { edges { node { id } } } }')],
  [
    'a GraphQL mutation with a key',
    () => graphql('mutation { createCategory(input: { name: "S" }) { id } }', apiKey),
  ],
] as const;

async function rest(method: string, path: string, body?: unknown, key?: string) {
  const response = await fetch(`${http.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(key && { 'x-api-key': key }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), error: answer };
}

async function graphql(query: string, key?: string) {
  const response = await fetch(`${http.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key && { 'x-api-key': key }) },
    body: JSON.stringify({ query }),
  });
  const answer = await response.json();
  const { code, status } = answer.errors?.[0]?.extensions ?? {};
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    error: { code, status, message: answer.errors?.[0]?.message },
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
    const response = await fetch(`${http.url}/readyz`);
    expect(Date.now() - started).toBeLessThan(2000 + 1500);
    expect(response.status).toBe(503);
    const { status, checks } = await response.json();
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
    expect((await fetch(`${http.url}/readyz`)).status).toBe(200);
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
