// Screenshots go to test/.artifacts/screenshots/ (gitignored). To refresh the two committed ones that docs/operations.md
// shows, run with UPDATE_SCREENSHOTS=1: they are then written to docs/screenshots/.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoCatalogue } from '../../src/store/demo-catalogue.ts';
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
  await seedDemoCatalogue(app.database.db);
  mkdirSync(screenshots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** A fresh browser page that fails the test on any request outside loopback and on any script error. */
async function openPage(): Promise<{ page: Page; outside: string[]; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const outside = await blockOutsideLoopback(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return { page, outside, errors };
}

describe('GraphiQL at /graphql', () => {
  it('runs the default query on the demo data, with no key, and loads nothing from outside', async () => {
    const { page, outside, errors } = await openPage();
    await page.goto(`${app.url}/graphql`);
    const run = page.locator('.graphiql-execute-button');
    await run.waitFor();

    const [response] = await Promise.all([
      page.waitForResponse(
        (r) => r.request().method() === 'POST' && r.request().postData()?.includes('Catalogue') === true,
      ),
      run.click(),
    ]);
    expect(response.status()).toBe(200);
    expect(await response.request().headerValue('x-api-key')).toBeNull();
    await expect.poll(() => page.locator('.graphiql-response').textContent()).toContain('"Rex"');

    // The headers editor shows where the key goes, commented out so that it does not break reads.
    const headers = await page.locator('.graphiql-editor-tool').textContent();
    expect(headers?.replaceAll('\u00a0', ' ')).toContain('// "X-API-Key": "psk_...');

    await page.screenshot({ path: join(screenshots, 'graphiql.png') });
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('API reference at /docs', () => {
  it('lists every operation of /openapi.json with its marks, and loads nothing from outside', async () => {
    const document = await (await fetch(`${app.url}/openapi.json`)).json();
    const operations = Object.values(document.paths as Record<string, Record<string, unknown>>).flatMap(
      (item) => Object.keys(item).filter((key) => ['get', 'put', 'post', 'delete', 'patch'].includes(key)),
    );
    const { page, outside, errors } = await openPage();
    await page.goto(`${app.url}/docs`);
    await page.locator('.opblock').first().waitFor();

    expect(await page.locator('.opblock').count()).toBe(operations.length);
    const operation = (method: string, path: string) =>
      page
        .locator('.opblock')
        .filter({ has: page.locator(`[data-path="${path}"]`) })
        .filter({
          has: page.locator('.opblock-summary-method', { hasText: new RegExp(`^${method}$`, 'i') }),
        });
    expect(await operation('get', '/pets/{petId}').getAttribute('class')).toContain('opblock-deprecated');
    const badge = (method: string, path: string) =>
      operation(method, path).locator('.stability-badge').textContent();
    expect(await badge('get', '/store/inventory')).toBe('beta');
    expect(await badge('put', '/store/inventory/{petId}')).toBe('experimental');
    const lastOperation = await page.locator('.opblock').last().boundingBox();
    const height = Math.ceil((lastOperation?.y ?? 0) + (lastOperation?.height ?? 0) + 24);
    await page.screenshot({
      path: join(screenshots, 'docs.png'),
      fullPage: true,
      clip: { x: 0, y: 0, width: 1440, height },
    });

    // "Try it out" is offered, except where the document sets x-hideTryItPanel (GET /store/orders).
    await operation('get', '/pets').locator('.opblock-summary-control').click();
    await operation('get', '/pets').locator('.try-out__btn').waitFor();
    await operation('get', '/store/orders').locator('.opblock-summary-control').click();
    await operation('get', '/store/orders').locator('.parameters-container').waitFor();
    expect(await operation('get', '/store/orders').locator('.try-out__btn').count()).toBe(0);

    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  });
});
