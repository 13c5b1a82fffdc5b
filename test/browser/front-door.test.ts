// Screenshots go to test/.artifacts/screenshots/ (gitignored); UPDATE_SCREENSHOTS=1 writes the committed ones in
// docs/screenshots/ that the README shows.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { blockOutsideLoopback, launchChromium } from './chromium.ts';

const screenshots = resolve(
  import.meta.dirname,
  process.env.UPDATE_SCREENSHOTS === '1' ? '../../docs/screenshots' : '../.artifacts/screenshots',
);

let app: TestApp;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchChromium()]);
  mkdirSync(screenshots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

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
    await page.screenshot({ path: join(screenshots, 'front-door.png') });

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
});
