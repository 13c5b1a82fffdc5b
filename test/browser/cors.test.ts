import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoCatalogue } from '../../src/store/demo-catalogue.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createTestKey } from '../support/keys.ts';
import { blockOutsideLoopback, launchChromium } from './chromium.ts';

// A browser app on another origin calling the gateway with fetch: what its script can read. Two tiny pages,
// each served from its own loopback port (so its own origin); CORS_ORIGINS lists the first only.

/** A page server on a free loopback port: its origin is http://127.0.0.1:<port>. */
async function servePage(): Promise<{ origin: string; server: Server }> {
  const server = createServer((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>app</title>');
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

let app: TestApp;
let browser: Browser;
let allowedPage: { origin: string; server: Server };
let otherPage: { origin: string; server: Server };
let smallKey: string;
beforeAll(async () => {
  [allowedPage, otherPage, browser] = await Promise.all([servePage(), servePage(), launchChromium()]);
  app = await startTestApp({ http: true, env: { CORS_ORIGINS: allowedPage.origin } });
  await seedDemoCatalogue(app.database.db);
  smallKey = await createTestKey(app.prisma, 'enterprise', { perMinute: 1, perDay: 100 });
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  for (const page of [allowedPage, otherPage]) page?.server.close();
});

async function openPage(origin: string): Promise<{ page: Page; outside: string[] }> {
  const context = await browser.newContext();
  const outside = await blockOutsideLoopback(context);
  const page = await context.newPage();
  await page.goto(origin);
  return { page, outside };
}

/** What a script on the page sees of a fetch: status and the named headers, or the error it threw. */
type Seen = { status: number; headers: Record<string, string | null> } | { error: string };

function fetchFromPage(
  page: Page,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
  read: string[],
): Promise<Seen> {
  return page.evaluate(
    async ({ url, init, read }) => {
      try {
        const response = await fetch(url, init);
        await response.text();
        return {
          status: response.status,
          headers: Object.fromEntries(read.map((name) => [name, response.headers.get(name)])),
        };
      } catch (error) {
        return { error: String(error) };
      }
    },
    { url, init, read },
  );
}

/** A GET from the page with the test app's key (and any other headers), reading the named response headers. */
const getWithKey = (page: Page, path: string, read: string[], headers: Record<string, string> = {}) =>
  fetchFromPage(page, `${app.url}${path}`, { headers: { 'X-API-Key': app.apiKey, ...headers } }, read);

/** The headers a fetch that answered let the page read; a fetch that threw fails the test with its error. */
function headersOf(seen: Seen): Record<string, string | null> {
  if ('error' in seen) throw new Error(`the page's fetch failed: ${seen.error}`);
  return seen.headers;
}

describe('a page on an allowed origin', () => {
  it('calls the API with its key and reads the rate-limit, paging, deprecation and idempotency headers', async () => {
    const { page, outside } = await openPage(allowedPage.origin);
    const keyed = { 'X-API-Key': app.apiKey };

    const list = await getWithKey(page, '/pets?limit=1', [
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'RateLimit',
      'RateLimit-Policy',
      'Link',
      'X-Request-Id',
    ]);
    expect(list).toMatchObject({ status: 200 });
    const listed = headersOf(list);
    for (const [name, value] of Object.entries(listed)) expect(value, name).toBeTruthy();
    expect(listed.Link).toContain('rel="next"');

    const create = {
      method: 'POST',
      headers: { ...keyed, 'Content-Type': 'application/json', 'Idempotency-Key': 'browser-1' },
      body: JSON.stringify({ name: 'Parrots' }),
    };
    const created = await fetchFromPage(page, `${app.url}/categories`, create, [
      'Location',
      'Idempotent-Replayed',
    ]);
    expect(created).toMatchObject({ status: 201, headers: { 'Idempotent-Replayed': null } });
    const location = headersOf(created).Location;
    expect(location).toMatch(/^\/categories\/\d+$/);
    expect(
      await fetchFromPage(page, `${app.url}/categories`, create, ['Location', 'Idempotent-Replayed']),
    ).toEqual({
      status: 201,
      headers: { Location: location, 'Idempotent-Replayed': 'true' },
    });

    const deprecated = await getWithKey(page, '/pets/1', ['Deprecation', 'Sunset']);
    expect(deprecated).toMatchObject({
      status: 200,
      headers: { Deprecation: expect.any(String), Sunset: expect.any(String) },
    });

    const graphql = await fetchFromPage(
      page,
      `${app.url}/graphql`,
      {
        method: 'POST',
        headers: { ...keyed, 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: '{ categories(first: 1) { edges { cursor } } }' }),
      },
      ['X-RateLimit-Remaining'],
    );
    expect(graphql).toMatchObject({
      status: 200,
      headers: { 'X-RateLimit-Remaining': expect.stringMatching(/^\d+$/) },
    });

    // The refusal is readable too: a browser app can wait as long as Retry-After says.
    const small = { headers: { 'X-API-Key': smallKey } };
    await fetchFromPage(page, `${app.url}/pets?limit=1`, small, []);
    expect(
      await fetchFromPage(page, `${app.url}/pets?limit=1`, small, ['Retry-After', 'X-RateLimit-Remaining']),
    ).toEqual({
      status: 429,
      headers: { 'Retry-After': expect.stringMatching(/^\d+$/), 'X-RateLimit-Remaining': '0' },
    });
    expect(outside).toEqual([]);
  });
  it('reads an ETag and revalidates an answer it kept: 304 with no body, free of quota', async () => {
    const { page, outside } = await openPage(allowedPage.origin);
    const read = ['ETag', 'X-RateLimit-Remaining'];
    const first = await getWithKey(page, '/pets?limit=2', read);
    expect(first).toMatchObject({ status: 200, headers: { ETag: expect.stringMatching(/^(W\/)?"/) } });
    const seen = headersOf(first);
    // If-None-Match set by the script makes the request a preflighted one, and the browser hands the 304 over.
    expect(await getWithKey(page, '/pets?limit=2', read, { 'If-None-Match': seen.ETag as string })).toEqual({
      status: 304,
      headers: { ETag: seen.ETag, 'X-RateLimit-Remaining': expect.any(String) },
    });
    const after = headersOf(await getWithKey(page, '/pets?limit=2', read));
    expect(Number(after['X-RateLimit-Remaining'])).toBe(Number(seen['X-RateLimit-Remaining']) - 1);
    expect(outside).toEqual([]);
  });
});

describe('a page on an origin that is not allowed', () => {
  it('cannot read a response: fetch fails with a CORS error, with or without a preflight', async () => {
    const { page, outside } = await openPage(otherPage.origin);
    const messages: string[] = [];
    page.on('console', (message) => messages.push(message.text()));
    const keyed = await fetchFromPage(
      page,
      `${app.url}/pets?limit=1`,
      { headers: { 'X-API-Key': app.apiKey } },
      [],
    );
    const simple = await fetchFromPage(page, `${app.url}/pets?limit=1`, {}, []);
    expect(keyed).toEqual({ error: expect.stringContaining('Failed to fetch') });
    expect(simple).toEqual({ error: expect.stringContaining('Failed to fetch') });
    await expect.poll(() => messages.join('\n')).toMatch(/blocked by CORS policy/);
    expect(outside).toEqual([]);
  });
});

describe('EventSource across origins', () => {
  /** Opens an EventSource on the page; answers whether it opened, and the `next` events it has received. */
  async function listen(page: Page, url: string): Promise<boolean> {
    return page.evaluate(
      (url) =>
        new Promise<boolean>((opened) => {
          const seen: unknown[] = [];
          (window as unknown as { seen: unknown[] }).seen = seen;
          const source = new EventSource(url);
          source.onopen = () => opened(true);
          source.onerror = () => {
            source.close();
            opened(false);
          };
          source.addEventListener('next', (event) => seen.push(JSON.parse((event as MessageEvent).data)));
        }),
      url,
    );
  }

  it('streams a committed change to a page on an allowed origin, and nothing to another', async () => {
    const pet = await app.createPet({ name: 'Streamed' });
    const query = `subscription { inventoryChanged(petId: ${pet.id}) { quantity } }`;
    const url = `${app.url}/graphql?query=${encodeURIComponent(query)}`;
    const allowed = await openPage(allowedPage.origin);
    const other = await openPage(otherPage.origin);
    expect(await listen(allowed.page, url)).toBe(true);
    expect(await listen(other.page, url)).toBe(false);

    await app.ok(`mutation { updateInventory(petId: ${pet.id}, input: { quantity: 9 }) { quantity } }`);
    await allowed.page.waitForFunction(() => (window as unknown as { seen: unknown[] }).seen.length > 0);
    expect(await allowed.page.evaluate(() => (window as unknown as { seen: unknown[] }).seen)).toEqual([
      { data: { inventoryChanged: { quantity: 9 } } },
    ]);
    expect(await other.page.evaluate(() => (window as unknown as { seen: unknown[] }).seen)).toEqual([]);
    expect([...allowed.outside, ...other.outside]).toEqual([]);
  });
});
