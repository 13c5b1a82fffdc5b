import { Writable } from 'node:stream';
import { pino } from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { parseApiKeyCommand, runApiKeyCommand } from '../../src/keys/commands.ts';
import { createUsageCounter, databaseUsageStore } from '../../src/usage/counts.ts';
import { useTestApp } from '../support/app.ts';
import { subscribe } from '../support/event-stream.ts';
import { createTestKey } from '../support/keys.ts';

// The usage page's counts, on the database (SQLite and PostgreSQL): what a key holder sees matches the requests
// the key made, whichever process counted them, and looking costs nothing.
const logged: string[] = [];
let key: string;
const app = useTestApp({
  http: true,
  logger: pino(
    { level: 'info' },
    new Writable({
      write(chunk, _encoding, done) {
        logged.push(String(chunk));
        done();
      },
    }),
  ),
});
beforeAll(async () => {
  key = await createTestKey(app.prisma, 'enterprise', { perMinute: 3, perDay: 100 });
});

const usageOf = async (apiKey: string | undefined) => {
  const response = await app.get('/usage', { key: apiKey ?? null, headers: { accept: 'application/json' } });
  return { response, body: response.body };
};
/** The status of a request with the file's key (or another). */
const statusOf = async (answer: Promise<{ status: number }>) => (await answer).status;

describe('GET /usage', () => {
  it("answers a key's requests and refusals of the current minute and hour, its top operations and quota", async () => {
    const statuses = [
      await statusOf(app.get('/pets?limit=1', { key })),
      await statusOf(app.get('/pets/999999999', { key })),
      await statusOf(
        app.postGraphQL({ query: 'query Few { pets(first: 1) { edges { cursor } } }' }, { key }),
      ),
      await statusOf(app.get('/pets?limit=1', { key })),
      await statusOf(app.get('/pets?limit=1', { key })),
    ];
    expect(statuses).toEqual([200, 404, 200, 429, 429]);

    const { response, body } = await usageOf(key);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    expect(body.key).toMatchObject({ plan: 'enterprise', scopes: ['read', 'orders', 'catalog', 'admin'] });
    expect(body.minutes).toHaveLength(60);
    expect(body.hours).toHaveLength(168);
    // The requests may straddle a minute's (or an hour's) end: the series hold them all, in the latest points.
    type Point = {
      requests: number;
      refused: Record<string, number>;
      clientErrors: number;
      serverErrors: number;
    };
    const total = (points: Point[]) =>
      points.reduce(
        (sum, point) => ({
          requests: sum.requests + point.requests,
          refused: { minute: (sum.refused.minute ?? 0) + (point.refused.minute ?? 0) },
          clientErrors: sum.clientErrors + point.clientErrors,
          serverErrors: sum.serverErrors + point.serverErrors,
        }),
        { requests: 0, refused: {}, clientErrors: 0, serverErrors: 0 } as Point,
      );
    const minute = total(body.minutes.slice(-2));
    for (const series of [body.minutes, body.hours]) {
      expect(total(series.slice(-2))).toEqual({
        requests: 5,
        refused: { minute: 2 },
        clientErrors: 1,
        serverErrors: 0,
      });
    }
    expect(body.minutes.slice(0, -2).every((point: Point) => point.requests === 0)).toBe(true);
    expect(body.topOperations).toEqual([
      { api: 'rest', operation: 'listPets', requests: 3 },
      expect.objectContaining({ requests: 1 }),
      expect.objectContaining({ requests: 1 }),
    ]);
    expect(body.topOperations).toContainEqual({ api: 'graphql', operation: 'Few', requests: 1 });
    expect(body.quota.minute).toMatchObject({ limit: 3, remaining: 0 });
    expect(body.quota.day).toMatchObject({ limit: 100, remaining: 97 });
    expect(Date.parse(body.quota.minute.resetAt)).toBeGreaterThan(Date.now());

    // Looking again costs nothing and changes nothing.
    const again = (await usageOf(key)).body;
    for (const window of ['minute', 'day'] as const) {
      expect(again.quota[window]).toMatchObject({
        limit: body.quota[window].limit,
        remaining: body.quota[window].remaining,
      });
      // The reset is computed from the time left, to the millisecond.
      expect(
        Math.abs(Date.parse(again.quota[window].resetAt) - Date.parse(body.quota[window].resetAt)),
      ).toBeLessThan(1000);
    }
    expect(total(again.minutes.slice(-2))).toEqual(minute);
  });

  it('adds the counts of every process sharing the database', async () => {
    const otherKey = await createTestKey(app.prisma, 'pro');
    await statusOf(app.get('/pets?limit=1', { key: otherKey }));
    const id = (await app.prisma.apiKey.findFirstOrThrow({ orderBy: { id: 'desc' } })).id;
    const elsewhere = createUsageCounter(databaseUsageStore(app.prisma));
    for (let i = 0; i < 4; i++)
      elsewhere.record({ keyId: id, status: 200, api: 'rest', operation: 'listPets' });
    elsewhere.record({ keyId: id, status: 503, api: 'rest', operation: 'listPets' });
    await elsewhere.close();
    const { body } = await usageOf(otherKey);
    const last = (points: { requests: number; serverErrors: number }[]) =>
      points.slice(-2).reduce((sum, p) => ({
        requests: sum.requests + p.requests,
        serverErrors: sum.serverErrors + p.serverErrors,
      }));
    expect(last(body.minutes)).toEqual({ requests: 6, serverErrors: 1 });
    expect(body.topOperations).toEqual([{ api: 'rest', operation: 'listPets', requests: 6 }]);
  });

  it('refuses without a key (401 UNAUTHENTICATED) and with an unknown one (401 INVALID_API_KEY)', async () => {
    expect(await usageOf(undefined)).toMatchObject({
      response: { status: 401 },
      body: { code: 'UNAUTHENTICATED' },
    });
    expect(await usageOf('psk_unknown')).toMatchObject({
      response: { status: 401 },
      body: { code: 'INVALID_API_KEY' },
    });
  });

  it('serves a browser the page, and never writes the key in the log', async () => {
    const response = await app.fetch(`/usage`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<script src="/usage/assets/uPlot.iife.min.js"></script>');
    const uPlot = await app.fetch(`/usage/assets/uPlot.iife.min.js`);
    expect(uPlot.status).toBe(200);
    expect((await uPlot.arrayBuffer()).byteLength).toBeGreaterThan(40_000);
    await expect.poll(() => logged.join('').includes('/usage')).toBe(true);
    expect(logged.join('')).not.toContain(key);
  });
});

describe('the usage table', () => {
  it('keeps an hour of minutes and 7 days of hours: the sweep deletes older buckets', async () => {
    let clock = Date.UTC(2030, 0, 1, 12, 0, 0);
    const counter = createUsageCounter(databaseUsageStore(app.prisma), { now: () => clock });
    const id = (await app.prisma.apiKey.findFirstOrThrow()).id;
    counter.record({ keyId: id, status: 200, api: 'rest', operation: 'listPets' });
    await counter.flush();
    const rows = () =>
      app.prisma.usageCount.count({ where: { startsAt: { gte: new Date(Date.UTC(2030, 0, 1)) } } });
    const written = await rows();
    expect(written).toBe(3); // a minute's requests, an hour's requests, an hour's operation
    clock += 61 * 60_000;
    await counter.sweep();
    expect(await rows()).toBe(2);
    clock += 7 * 24 * 3_600_000;
    await counter.sweep();
    expect(await rows()).toBe(0);
    await counter.close();
  });
});

describe('viewer { usage }', () => {
  it('gives a key its own counts, as /usage does, and null without a key', async () => {
    const viewerKey = await createTestKey(app.prisma, 'pro');
    await statusOf(app.get('/categories', { key: viewerKey }));
    await statusOf(app.get('/nothing', { key: viewerKey }));
    const query =
      '{ viewer { usage { minutes { requests clientErrors refused { kind count } } hours { requests } topOperations { api operation requests } } } }';
    const { body } = await app.graphql(query, undefined, { key: viewerKey });
    const usage = body.data.viewer.usage;
    expect(usage.minutes).toHaveLength(60);
    const requests = (points: { requests: number }[]) =>
      points.reduce((sum, point) => sum + point.requests, 0);
    expect(requests(usage.minutes)).toBe(2);
    expect(requests(usage.hours)).toBe(2);
    expect(usage.minutes.slice(-2).flatMap((p: { refused: unknown[] }) => p.refused)).toEqual([]);
    expect(usage.minutes.reduce((sum: number, p: { clientErrors: number }) => sum + p.clientErrors, 0)).toBe(
      1,
    );
    expect(usage.topOperations).toContainEqual({ api: 'rest', operation: 'listCategories', requests: 1 });
    const anonymous = await app.graphql('{ viewer { usage { hours { requests } } } }', undefined, {
      key: null,
    });
    expect(anonymous.body.data.viewer.usage).toBeNull();
  });
});

describe('npm run apikey -- usage <id>', () => {
  it("prints a key's requests, refusals and top operations", async () => {
    const cliKey = await createTestKey(app.prisma, 'enterprise', { perMinute: 1, perDay: 100 });
    expect([
      await statusOf(app.get('/categories', { key: cliKey })),
      await statusOf(app.get('/categories', { key: cliKey })),
    ]).toEqual([200, 429]);
    const id = (await app.prisma.apiKey.findFirstOrThrow({ orderBy: { id: 'desc' } })).id;
    await app.get('/usage', { key: cliKey }); // adds the gateway's pending counts
    const lines = await runApiKeyCommand(
      parseApiKeyCommand(['usage', String(id)]),
      app.prisma,
      loadConfig({}).rateLimit,
    );
    const text = lines.join('\n');
    expect(text).toContain(`API key ${id} (test enterprise, psk_`);
    expect(text).toMatch(/last hour: +2 requests \(429: minute 1; other 4xx: 0; 5xx: 0\)/);
    expect(text).toMatch(/rest +listCategories +2/);
    await expect(
      runApiKeyCommand(parseApiKeyCommand(['usage', '999999']), app.prisma, loadConfig({}).rateLimit),
    ).rejects.toThrow('There is no API key 999999');
    expect(() => parseApiKeyCommand(['usage'])).toThrow();
  });
});

describe('open subscriptions on /usage', () => {
  it('counts the subscriptions the key holds open, and lets them go when they end', async () => {
    const holder = await createTestKey(app.prisma, 'pro');
    const open = async () =>
      (await app.get('/usage', { key: holder, headers: { accept: 'application/json' } })).body.subscriptions;
    expect((await open()).open).toBe(0);
    const stream = await subscribe(app.url, 'subscription { inventoryChanged { petId quantity } }', {
      key: holder,
    });
    await expect.poll(async () => (await open()).open).toBe(1);
    expect((await open()).max).toBeGreaterThan(1);
    await stream.close();
    await expect.poll(async () => (await open()).open).toBe(0);
  });
});
