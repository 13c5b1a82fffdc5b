import { beforeAll, describe, expect, it } from 'vitest';
import { type Answer, type SendOptions, type TestApp, useTestApp } from '../support/app.ts';
import { createTestKey } from '../support/keys.ts';

// CORS as a browser sees it: which responses carry which Access-Control-* headers. The browser itself (a page on
// another origin reading the headers, over real HTTP) is test/browser/cors.test.ts.

const ALLOWED = 'https://app.example.com';
const OTHER = 'https://elsewhere.example.org';
// Response headers a page reads without their being exposed (the CORS-safelisted ones), and those it has no use
// for: the connection's, and the ones only the browser's HTTP cache reads (ETag is exposed: a page may keep
// answers itself and revalidate them).
const READABLE_ANYWAY = new Set([
  'cache-control',
  'content-language',
  'content-length',
  'content-type',
  'expires',
  'last-modified',
  'pragma',
]);
const NOT_FOR_PAGES = new Set([
  'connection',
  'keep-alive',
  'date',
  'transfer-encoding',
  'content-encoding',
  'vary',
]);

const listed = useTestApp({ env: { CORS_ORIGINS: `${ALLOWED}, http://127.0.0.1:5173` } });
const any = useTestApp({ env: { CORS_ORIGINS: '*' } });
const closed = useTestApp();
let oneRequestKey: string;
beforeAll(async () => {
  oneRequestKey = await createTestKey(listed.prisma, 'enterprise', { perMinute: 1, perDay: 100 });
});

/** A request from a page of `origin` (none unless given). */
const request = (
  app: TestApp,
  path: string,
  { origin, method = 'GET', ...options }: SendOptions & { origin?: string; method?: string } = {},
) => app.send(method, path, { ...options, headers: { ...(origin && { origin }), ...options.headers } });

const preflight = (app: TestApp, path: string, origin: string, method: string, headers: string) =>
  app.send('OPTIONS', path, {
    key: null,
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });

const corsHeadersOf = (response: Answer) =>
  Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-')));

function expectAllowed(response: Answer, origin: string, what: string) {
  expect(response.headers.get('access-control-allow-origin'), what).toBe(origin);
  // Every header the gateway wrote on this answer that a page would read is exposed to it.
  const exposed = (response.headers.get('access-control-expose-headers') ?? '')
    .toLowerCase()
    .split(/\s*,\s*/);
  const written = [...response.headers.keys()].filter(
    (name) => !name.startsWith('access-control-') && !READABLE_ANYWAY.has(name) && !NOT_FOR_PAGES.has(name),
  );
  expect(written.length, what).toBeGreaterThan(0);
  expect(exposed, what).toEqual(expect.arrayContaining(written));
  expect(response.headers.get('access-control-allow-credentials'), what).toBeNull();
}

describe('CORS_ORIGINS with a list of origins', () => {
  it('allows a listed origin on every kind of response, errors included, and never credentials', async () => {
    const category = await request(listed, '/categories', {
      origin: ALLOWED,
      method: 'POST',
      body: { name: 'Birds' },
    });
    const cases: [string, Answer, number][] = [
      ['REST read', await request(listed, '/pets', { origin: ALLOWED }), 200],
      ['REST write', category, 201],
      [
        'GraphQL',
        await request(listed, '/graphql', {
          origin: ALLOWED,
          method: 'POST',
          body: { query: '{ __typename }' },
        }),
        200,
      ],
      [
        'GraphQL, 400',
        await request(listed, '/graphql', {
          origin: ALLOWED,
          method: 'POST',
          body: { query: '{ nope }' },
          headers: { accept: 'application/graphql-response+json' },
        }),
        400,
      ],
      ['REST, 404', await request(listed, '/pets/987654', { origin: ALLOWED }), 404],
      ['REST, 400', await request(listed, '/pets/abc', { origin: ALLOWED }), 400],
      [
        'a key that names no key, 401',
        await request(listed, '/pets', { origin: ALLOWED, key: 'psk_no' }),
        401,
      ],
      ['ops', await request(listed, '/openapi.json', { origin: ALLOWED }), 200],
    ];
    const pet = await request(listed, '/pets', {
      origin: ALLOWED,
      method: 'POST',
      body: { name: 'Kiwi', categoryId: category.body.id },
    });
    cases.push(['REST write, Location', pet, 201]);
    cases.push([
      'deprecated read, Deprecation and Sunset',
      await request(listed, `/pets/${pet.body.id}`, { origin: ALLOWED }),
      200,
    ]);
    const keyed = {
      origin: ALLOWED,
      method: 'POST',
      body: { name: 'Finches' },
      headers: { 'idempotency-key': 'cors-replay' },
    };
    await request(listed, '/categories', keyed);
    cases.push(['replayed write, Idempotent-Replayed', await request(listed, '/categories', keyed), 201]);
    cases.push([
      'a page with a next one, Link',
      await request(listed, '/categories?limit=1', { origin: ALLOWED }),
      200,
    ]);
    await request(listed, '/pets', { origin: ALLOWED, key: oneRequestKey });
    cases.push(['429', await request(listed, '/pets', { origin: ALLOWED, key: oneRequestKey }), 429]);
    cases.push([
      'GraphQL, 429',
      await request(listed, '/graphql', {
        origin: ALLOWED,
        key: oneRequestKey,
        method: 'POST',
        body: { query: '{ categories(first: 1) { edges { cursor } } }' },
      }),
      429,
    ]);

    for (const [what, response, status] of cases) {
      expect(response.status, what).toBe(status);
      expectAllowed(response, ALLOWED, what);
      expect(response.headers.get('vary'), what).toMatch(/\bOrigin\b/i);
    }
    // The second origin of the list too, and only the one asking is named.
    expectAllowed(
      await request(listed, '/pets', { origin: 'http://127.0.0.1:5173' }),
      'http://127.0.0.1:5173',
      '2nd',
    );
  });

  it('gives another origin no CORS headers, on success and on error', async () => {
    for (const response of [
      await request(listed, '/pets', { origin: OTHER }),
      await request(listed, '/pets', { origin: OTHER, key: 'psk_no' }),
      await request(listed, '/pets', { origin: `${ALLOWED}.evil.test` }),
      await request(listed, '/pets', { origin: 'null' }),
    ]) {
      expect(corsHeadersOf(response)).toEqual({});
      expect(response.headers.get('vary')).toMatch(/\bOrigin\b/i);
    }
  });

  it('answers a preflight 204 with the methods, headers and max age, before the rate limit', async () => {
    const before = await request(listed, '/pets?limit=1');
    for (const [path, method] of [
      ['/graphql', 'POST'],
      ['/pets', 'POST'],
      ['/pets/1', 'PUT'],
      ['/pets/1', 'PATCH'],
      ['/pets/1', 'DELETE'],
    ] as const) {
      const response = await preflight(
        listed,
        path,
        ALLOWED,
        method,
        'content-type,x-api-key,idempotency-key',
      );
      expect(response.status, path).toBe(204);
      const headers = corsHeadersOf(response);
      expect(headers['access-control-allow-origin']).toBe(ALLOWED);
      expect(headers['access-control-allow-methods']?.split(/\s*,\s*/)).toEqual(
        expect.arrayContaining(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']),
      );
      expect(headers['access-control-allow-headers']?.toLowerCase().split(/\s*,\s*/)).toEqual(
        expect.arrayContaining(['content-type', 'x-api-key', 'idempotency-key']),
      );
      expect(Number(headers['access-control-max-age'])).toBeGreaterThan(0);
      expect(headers['access-control-allow-credentials']).toBeUndefined();
      expect(response.headers.get('x-ratelimit-remaining')).toBeNull();
    }
    // Five preflights later, the caller has paid for one more request only.
    const after = await request(listed, '/pets?limit=1');
    expect(Number(after.headers.get('x-ratelimit-remaining'))).toBe(
      Number(before.headers.get('x-ratelimit-remaining')) - 1,
    );
  });

  it('answers a preflight from another origin 204 with no CORS headers', async () => {
    const response = await preflight(listed, '/graphql', OTHER, 'POST', 'content-type,x-api-key');
    expect(response.status).toBe(204);
    expect(corsHeadersOf(response)).toEqual({});
  });
});

describe('CORS_ORIGINS=*', () => {
  it('allows any origin with `*`, never credentials', async () => {
    for (const response of [
      await request(any, '/pets', { origin: OTHER }),
      await request(any, '/pets', { origin: OTHER, key: 'psk_no' }),
      await preflight(any, '/pets', OTHER, 'POST', 'content-type,x-api-key'),
    ]) {
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    }
    expectAllowed(await request(any, '/pets', { origin: OTHER }), '*', 'GET');
  });
});

describe('CORS_ORIGINS unset (the default)', () => {
  it('allows no other origin: no CORS headers, on requests and on preflights', async () => {
    for (const response of [
      await request(closed, '/pets', { origin: OTHER }),
      await request(closed, '/graphql', { origin: OTHER, method: 'POST', body: { query: '{ __typename }' } }),
      await request(closed, '/pets', { origin: OTHER, key: 'psk_no' }),
      await preflight(closed, '/graphql', OTHER, 'POST', 'content-type,x-api-key'),
    ]) {
      expect(response.status).toBeLessThan(500);
      expect(corsHeadersOf(response)).toEqual({});
    }
  });
});

describe('the CORS_ORIGINS setting', () => {
  it.each(['https://app.example.com/', 'app.example.com', 'https://app.example.com/path', 'ftp:'])(
    'refuses %j, naming the variable',
    async (value) => {
      const { loadConfig } = await import('../../src/config/index.ts');
      expect(() => loadConfig({ CORS_ORIGINS: value })).toThrow(/CORS_ORIGINS/);
    },
  );
});
