import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestKey } from '../support/keys.ts';
import { blockOutsideLoopback } from './chromium.ts';
import { SCREENSHOTS, useDemoGateway } from './demo-gateway.ts';

const { app, browser } = useDemoGateway();

describe('the front door in a browser', () => {
  // GraphiQL's page alone takes seconds to load on a busy machine.
  it('opens /, shows its icon, and every link opens a page of the gateway; nothing leaves loopback', {
    timeout: 90_000,
  }, async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const outside = await blockOutsideLoopback(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    const response = await page.goto(`${app.url}/`);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('Pet Store Gateway');
    await page.waitForLoadState('load');
    expect(await page.locator('h1 img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(32);
    await page.screenshot({ path: join(SCREENSHOTS, 'front-door.png') });

    const links = await page
      .locator('li a')
      .evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).getAttribute('href') ?? ''));
    expect(links).toEqual(expect.arrayContaining(['/graphql', '/docs', '/openapi.json', '/healthz']));
    for (const href of links) {
      await page.goto(`${app.url}/`);
      const [opened] = await Promise.all([
        page.waitForResponse((r) => new URL(r.url()).pathname === href),
        page.locator(`li a[href="${href}"]`).click(),
      ]);
      expect(opened?.status(), href).toBe(200);
      expect(new URL(page.url()).pathname, href).toBe(href);
    }
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await context.close();
  });

  it("shows a key's usage at /usage: the chart's data is the requests the key made", {
    timeout: 90_000,
  }, async () => {
    const key = await createTestKey(app.prisma, 'enterprise', { perMinute: 4, perDay: 1000 });
    const statuses: number[] = [];
    for (const path of [
      '/pets?limit=2',
      '/pets?limit=2',
      '/pets/999999999',
      '/categories',
      '/pets',
      '/pets',
    ]) {
      statuses.push((await app.get(path, { key })).status);
    }
    expect(statuses).toEqual([200, 200, 404, 200, 429, 429]);

    const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
    const outside = await blockOutsideLoopback(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));

    await page.goto(`${app.url}/`);
    await page.locator('li a[href="/usage"]').click();
    await page.locator('#key').fill(key);
    await page.locator('#key-form button').click();
    await page.locator('#usage:not([hidden])').waitFor();
    const chart = (await page.evaluate(() => (window as unknown as { usageChart: unknown }).usageChart)) as {
      view: string;
      columns: number[][];
    };
    expect(chart.view).toBe('minutes');
    const [times, requests, refused, clientErrors, serverErrors] = chart.columns as [
      number[],
      number[],
      number[],
      number[],
      number[],
    ];
    expect(times).toHaveLength(60);
    // This minute's point holds the six requests (a request may have crossed into it from the previous minute).
    const sum = (values: number[]) => values.slice(-2).reduce((a, b) => a + b, 0);
    expect([sum(requests), sum(refused), sum(clientErrors), sum(serverErrors)]).toEqual([6, 2, 1, 0]);
    expect(await page.locator('#minute-left').textContent()).toBe('0 of 4 left');
    expect(await page.locator('#operations tbody tr').first().textContent()).toBe('restlistPets4');
    await page.screenshot({ path: join(SCREENSHOTS, 'usage.png'), fullPage: true });

    await page.locator('#show-hours').click();
    const hours = (await page.evaluate(() => (window as unknown as { usageChart: unknown }).usageChart)) as {
      columns: number[][];
    };
    expect(hours.columns[0]).toHaveLength(168);
    expect(hours.columns[1]?.slice(-2).reduce((a, b) => a + b, 0)).toBe(6);

    // The key went in a header only: never in a URL the page asked for.
    expect(urls.filter((url) => url.includes(key))).toEqual([]);
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await context.close();
  });

  it('opens one operation of /docs (the screenshot the README links)', { timeout: 90_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const outside = await blockOutsideLoopback(context);
    const page = await context.newPage();
    await page.goto(`${app.url}/docs`);
    const operation = page
      .locator('.opblock')
      .filter({ has: page.locator('[data-path="/pets"]') })
      .first();
    await operation.locator('.opblock-summary').click();
    await operation.locator('.opblock-body').waitFor();
    await operation.screenshot({ path: join(SCREENSHOTS, 'docs-operation.png') });
    expect(outside).toEqual([]);
    await context.close();
  });
});
