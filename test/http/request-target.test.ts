import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_TARGET_BYTES } from '../../src/contract/limits.ts';
import { useTestApp } from '../support/app.ts';
import { collectingLogger } from '../support/log-lines.ts';

// Every log line the gateway writes, parsed.
const { logger, lines: logLines } = collectingLogger<{
  level: number;
  msg: string;
  status?: number;
  err?: unknown;
}>('debug');

let port: number;
const app = useTestApp({ http: true, logger });
beforeAll(async () => {
  port = Number(new URL(app.url).port);
});

interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends a request head as it is (fetch and node:http cannot send these) and reads the one response. */
function send(head: string): Promise<RawReply> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk) => {
    received += chunk;
  });
  socket.write(Buffer.from(`${head}\r\n\r\n`, 'latin1'));
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('close', () => {
      const [top = '', ...rest] = received.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = top.split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

const request = (target: string, hostLines: string[] = ['Host: 127.0.0.1'], method = 'GET') =>
  send(
    [`${method} ${target} HTTP/1.1`, ...hostLines, `X-API-Key: ${app.apiKey}`, 'Connection: close'].join(
      '\r\n',
    ),
  );

let lastRemaining: number | undefined;

/** The Error object with its status, the rate-limit headers, and one more request counted. */
function expectRefused(reply: RawReply, code: string, status: number, message: RegExp) {
  expect(reply.status).toBe(status);
  expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = JSON.parse(reply.body);
  expect(body).toEqual({ code, status, message: expect.stringMatching(message) });
  for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit']) {
    expect(reply.headers[header], header).toBeDefined();
  }
  const remaining = Number(reply.headers['x-ratelimit-remaining']);
  if (lastRemaining !== undefined) expect(remaining, 'counted by the rate limit').toBe(lastRemaining - 1);
  lastRemaining = remaining;
}

describe('request targets the gateway does not serve: 400 with the Error object, counted', () => {
  const FOREIGN_TARGETS: [string, string][] = [
    ['GET', 'http://x/pets'],
    ['GET', 'http://127.0.0.1/graphql?query=%7B__typename%7D'],
    ['POST', 'https://127.0.0.1:1/graphql'],
    ['GET', 'HTTP://x'],
    ['GET', '*'],
    ['OPTIONS', '*'],
    ['POST', '*'],
    ['GET', '//'],
    ['GET', '//x/pets'],
    ['GET', '//127.0.0.1/graphql'],
    ['OPTIONS', '//x'],
  ];
  it.each(FOREIGN_TARGETS)('%s %s', async (method, target) => {
    expectRefused(
      await request(target, undefined, method),
      'VALIDATION_FAILED',
      400,
      /^request target: must be a path/,
    );
  });

  it('targets Node cannot parse at all are refused by node:http, with the Error object (nothing identified)', async () => {
    for (const target of ['pets', '?query=x', '/pe ts']) {
      const reply = await request(target);
      expect(reply.status, target).toBe(400);
      expect(JSON.parse(reply.body), target).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    }
    lastRemaining = undefined;
  });

  const BAD_ESCAPES = [
    '/%zz',
    '/pets/%zz',
    '/%',
    '/pets%',
    '/pets?status=%',
    '/graphql?query=%7B%7',
    '/%g0/x',
  ];
  it.each(BAD_ESCAPES)('%s', async (target) => {
    expectRefused(await request(target), 'VALIDATION_FAILED', 400, /^request target: has a % that is not/);
  });

  it(`takes a target of ${MAX_TARGET_BYTES} bytes and refuses one longer with 414 URI_TOO_LONG`, async () => {
    // Not an introspection-only query, which another budget would count (docs/rate-limits.md).
    const longest = `/graphql?query=%7Bcategories%7D&x=${'a'.repeat(MAX_TARGET_BYTES - 34)}`;
    expect(longest).toHaveLength(MAX_TARGET_BYTES);
    const taken = await request(longest);
    expect(taken.status).not.toBe(414);
    expect(JSON.parse(taken.body)).not.toMatchObject({ code: 'URI_TOO_LONG' });
    lastRemaining = Number(taken.headers['x-ratelimit-remaining']);
    expectRefused(await request(`${longest}a`), 'URI_TOO_LONG', 414, /longer than 8192 bytes/);
    expectRefused(await request(`/${'p'.repeat(12_000)}`), 'URI_TOO_LONG', 414, /longer than 8192 bytes/);
  });
});

describe('Host headers the gateway does not serve: 400 with the Error object, counted', () => {
  const BAD_HOSTS = [
    'a b',
    'x:99999',
    'x:65536',
    'x:-1',
    'x:y',
    'x:80:80',
    ':80',
    '[',
    '[::1',
    '::1',
    '[::1]x',
    '[zz::1]',
    '[::1]:99999',
    '[v1.x]',
    '',
    'u:p@127.0.0.1',
    '@127.0.0.1',
    '127.0.0.1/graphql?',
    '127.0.0.1/graphql',
    '127.0.0.1/pets',
    '127.0.0.1?q',
    '127.0.0.1#f',
    '127.0.0.1\\graphql',
    '1.2.3.999',
    '999999999999',
    'a%zz',
    'a%41',
    'café.example',
    'a<b',
    'a|b',
    'x'.repeat(254),
  ];
  it.each(BAD_HOSTS.map((host) => [JSON.stringify(host).slice(0, 40), host]))(
    'Host: %s',
    async (_shown, host) => {
      expectRefused(
        await request('/pets', [`Host: ${host}`]),
        'VALIDATION_FAILED',
        400,
        /^Host: must be a host name/,
      );
    },
  );

  it('a Host carrying a path never changes which API answers', async () => {
    for (const host of ['127.0.0.1/graphql?', '127.0.0.1/graphql?x=', '127.0.0.1/openapi.json#']) {
      expectRefused(await request('/pets', [`Host: ${host}`]), 'VALIDATION_FAILED', 400, /^Host: must be/);
    }
  });

  it('refuses a request without Host in HTTP/1.1, and with two Host lines (alike or not)', async () => {
    expectRefused(await request('/pets', []), 'VALIDATION_FAILED', 400, /^Host: is required in HTTP\/1\.1$/);
    for (const lines of [
      ['Host: 127.0.0.1', 'Host: 127.0.0.1'],
      ['Host: 127.0.0.1', 'host: evil.example'],
      ['HOST: a', 'Host: b', 'hOsT: c'],
    ]) {
      expectRefused(
        await request('/pets', lines),
        'VALIDATION_FAILED',
        400,
        /^Host: must be sent once; got \d Host headers$/,
      );
    }
  });

  it('comes before the ops endpoints: a bad Host on /healthz is refused and counted too', async () => {
    lastRemaining = undefined;
    expectRefused(await request('/pets', ['Host: a b']), 'VALIDATION_FAILED', 400, /^Host: /);
    expectRefused(await request('/healthz', ['Host: a b']), 'VALIDATION_FAILED', 400, /^Host: /);
    expectRefused(await request('http://x/healthz'), 'VALIDATION_FAILED', 400, /^request target: /);
  });

  it('the rate limit answers first: an unknown key is 401 even with a bad Host', async () => {
    const reply = await send('GET /pets HTTP/1.1\r\nHost: a b\r\nX-API-Key: psk_nope\r\nConnection: close');
    expect(reply.status).toBe(401);
    expect(JSON.parse(reply.body)).toMatchObject({ code: 'INVALID_API_KEY' });
    expect(reply.headers['x-ratelimit-remaining']).toBeDefined();
  });
});

describe('what it serves as before', () => {
  const GOOD_HOSTS = () => [
    '127.0.0.1',
    `127.0.0.1:${port}`,
    'localhost',
    `LocalHost.:${port}`,
    '[::1]',
    `[::1]:${port}`,
    '[::ffff:127.0.0.1]',
    'shop.example.com',
    'my_host.internal',
    'x:',
    'xn--caf-dma.example',
    'x'.repeat(253),
  ];
  it('serves every well-formed Host', async () => {
    for (const host of GOOD_HOSTS()) {
      const reply = await request('/graphql?query=%7B__typename%7D', [`Host: ${host}`]);
      expect(reply.status, host).toBe(200);
      expect(JSON.parse(reply.body), host).toEqual({ data: { __typename: 'Query' } });
    }
  });

  it('serves HTTP/1.0 without Host, and paths with well-formed escapes', async () => {
    const old = await send('GET /pets HTTP/1.0');
    expect(old.status).toBe(200);
    expect(old.body).toBe('[]');
    const escaped = await request('/graphql?query=%7B%20__typename%20%7D');
    expect(escaped.status).toBe(200);
    const missing = await request('/pets/%41');
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.body)).toMatchObject({ message: expect.stringMatching(/^petId: /) });
  });

  it('gives a Host the same answer every time it comes, before and after hundreds of other Hosts', async () => {
    const answers = async () => {
      const statuses: number[] = [];
      for (const host of ['127.0.0.1', '1.2.3.999', 'shop.example.com', 'a b', '[zz::1]', 'x:'])
        statuses.push((await request('/healthz', [`Host: ${host}`])).status);
      return statuses;
    };
    const first = await answers();
    expect(first).toEqual([200, 400, 200, 400, 400, 200]);
    expect(await answers()).toEqual(first);
    // More distinct Hosts than the stage keeps verdicts for, good and bad ones alternating.
    for (let i = 0; i < 300; i++) {
      const reply = await request('/healthz', [`Host: ${i % 2 ? `h${i}.example` : `h${i}.999`}`]);
      expect(reply.status, `h${i}`).toBe(i % 2 ? 200 : 400);
    }
    expect(await answers()).toEqual(first);
    lastRemaining = undefined;
  });

  it('answers the ops endpoints with a good Host as ever, unmetered', async () => {
    const reply = await request('/healthz');
    expect(reply.status).toBe(200);
    expect(reply.headers['x-ratelimit-remaining']).toBeUndefined();
  });
});

it('logs these refusals at info, never at error, and with no stack', () => {
  const refusals = logLines.filter(
    (line) => line.msg === 'request' && line.status !== undefined && line.status >= 400,
  );
  expect(refusals.length).toBeGreaterThan(40);
  expect(logLines.filter((line) => line.level >= 40)).toEqual([]);
  expect(JSON.stringify(logLines)).not.toMatch(/Invalid URL|TypeError|\bat \w+ \(/);
});
