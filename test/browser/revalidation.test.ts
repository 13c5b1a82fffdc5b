import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useAppWithChromium } from './demo-gateway.ts';

const { app, browser } = useAppWithChromium({ demo: true });

interface Exchange {
  url: string;
  /** The status on the wire: 304 for a revalidation, even when the page sees the cached 200. */
  status?: number;
  ifNoneMatch?: string;
  bytes: number;
}

/**
 * A page whose every network exchange is recorded through the DevTools protocol, with the bytes it took on the
 * wire (headers and encoded body). No request routing: Playwright turns the HTTP cache off for routed contexts.
 */
async function openRecordedPage(): Promise<{ page: Page; exchanges: Map<string, Exchange> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const exchanges = new Map<string, Exchange>();
  const at = (id: string) => {
    let exchange = exchanges.get(id);
    if (!exchange) {
      exchange = { url: '', bytes: 0 };
      exchanges.set(id, exchange);
    }
    return exchange;
  };
  cdp.on('Network.requestWillBeSent', ({ requestId, request }) => {
    at(requestId).url = request.url;
  });
  cdp.on('Network.requestWillBeSentExtraInfo', ({ requestId, headers }) => {
    const value = Object.entries(headers).find(([name]) => name.toLowerCase() === 'if-none-match')?.[1];
    if (value) at(requestId).ifNoneMatch = String(value);
  });
  cdp.on('Network.responseReceivedExtraInfo', ({ requestId, statusCode }) => {
    at(requestId).status = statusCode;
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    at(requestId).bytes = encodedDataLength;
  });
  return { page, exchanges };
}

// What crossed the network: a data: URL (GraphiQL's icon font) is decoded from the page already loaded.
const total = (exchanges: Map<string, Exchange>) =>
  [...exchanges.values()]
    .filter(({ url }) => /^https?:/.test(url))
    .reduce((sum, { bytes }) => sum + bytes, 0);

describe('in Chromium, a reload revalidates and transfers almost nothing', () => {
  // Each page's last fetch once it is up: GraphiQL's schema, the reference's OpenAPI document.
  for (const [name, path, ready, lastFetch] of [
    ['GraphiQL', '/graphql', '.graphiql-container', 'IntrospectionQuery'],
    ['the API reference', '/docs', '.opblock', '/openapi.json'],
  ] as const) {
    it(`${name} at ${path}`, async () => {
      const { page, exchanges } = await openRecordedPage();
      await page.goto(`${app.url}${path}`, { waitUntil: 'networkidle' });
      await page.waitForSelector(ready);
      const first = total(exchanges);
      expect(first).toBeGreaterThan(300_000);
      // Nothing leaves the machine (the page's own blob: and data: URLs aside).
      for (const { url } of exchanges.values()) {
        if (/^https?:/.test(url)) expect(new URL(url).hostname).toBe('127.0.0.1');
      }
      exchanges.clear();
      // Not 'networkidle': Chromium keeps the page's blob: workers' loads open, so it may never come.
      const fetched = page.waitForResponse((response) => response.url().includes(lastFetch));
      await page.reload({ waitUntil: 'load' });
      await page.waitForSelector(ready);
      const last = await fetched;
      await last.finished();
      await expect
        .poll(() => [...exchanges.values()].find(({ url }) => url === last.url())?.bytes ?? 0)
        .toBeGreaterThan(0);
      const page304 = [...exchanges.values()].find(({ url }) => url.startsWith(`${app.url}${path}`));
      expect(page304?.status).toBe(304);
      expect(page304?.ifNoneMatch).toMatch(/^W\/"/);
      const reloaded = total(exchanges);
      expect(reloaded, JSON.stringify([...exchanges.values()])).toBeLessThan(first / 50);
      await page.context().close();
      // GraphiQL's page is 9 MB of script, parsed twice here, on a shared machine.
    }, 120_000);
  }
});

describe("a page script's fetch of a REST GET", () => {
  it('revalidates with If-None-Match and gets the cached answer on a 304', async () => {
    const { page, exchanges } = await openRecordedPage();
    await page.goto(`${app.url}/docs`, { waitUntil: 'networkidle' });
    exchanges.clear();
    const [first, second] = await page.evaluate(async () => {
      const read = async () => {
        const response = await fetch('/pets?limit=5');
        return { status: response.status, body: await response.text(), etag: response.headers.get('etag') };
      };
      return [await read(), await read()];
    });
    expect(first.status).toBe(200);
    // The page sees the stored answer, whole, as a 200: the 304 is the browser's.
    expect(second).toEqual(first);
    const reads = [...exchanges.values()].filter(({ url }) => url.startsWith(`${app.url}/pets`));
    expect(reads.map(({ status }) => status)).toEqual([200, 304]);
    expect(reads[1]?.ifNoneMatch).toBe(first.etag);
    expect(reads[1]?.bytes).toBeLessThan(1_000);
    await page.context().close();
  });
});
