import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { blockOutsideLoopback } from './chromium.ts';
import { SCREENSHOTS, useDemoGateway } from './demo-gateway.ts';

const { app, browser } = useDemoGateway();

/**
 * A fresh browser page that fails the test on any request outside loopback and on any script error; console
 * warnings are collected apart.
 */
async function openPage(
  viewport = { width: 1440, height: 900 },
): Promise<{ page: Page; outside: string[]; errors: string[]; warnings: string[] }> {
  const context = await browser.newContext({ viewport });
  const outside = await blockOutsideLoopback(context);
  const page = await context.newPage();
  const errors: string[] = [];
  const warnings: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
    if (message.type() === 'warning') warnings.push(message.text());
  });
  return { page, outside, errors, warnings };
}

/** Relative luminance (WCAG 2) of a CSS `rgb(r, g, b)` colour. */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+/g) ?? []).slice(0, 3).map((value) => {
    const channel = Number(value) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

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

    await page.screenshot({ path: join(SCREENSHOTS, 'graphiql.png') });
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows the default query and headers whole at 1,400 px: no line runs past its editor', async () => {
    const { page } = await openPage({ width: 1400, height: 900 });
    await page.goto(`${app.url}/graphql`);
    await page.locator('.graphiql-execute-button').waitFor();
    await expect.poll(() => page.locator('.view-line').count()).toBeGreaterThan(10);
    const overflowing = await page.evaluate(() =>
      [...document.querySelectorAll('.monaco-editor')].flatMap((editor) => {
        const visible = (editor.querySelector('.monaco-scrollable-element') as HTMLElement).clientWidth;
        return [...editor.querySelectorAll('.view-line > span')]
          .filter((line) => (line as HTMLElement).offsetWidth > visible)
          .map((line) => line.textContent);
      }),
    );
    expect(overflowing).toEqual([]);
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

    // What each operation needs, in words: reads take no key (and show no lock, which read as "locked"); a
    // write names the scope of its key, from the document, and keeps the lock that opens the key dialog.
    const keyBadge = (method: string, path: string) =>
      operation(method, path).locator('.key-badge').textContent();
    const locks = (method: string, path: string) =>
      operation(method, path).locator('.authorization__btn').count();
    for (const [path, item] of Object.entries(
      document.paths as Record<string, Record<string, { security: object[]; 'x-required-scope': string }>>,
    )) {
      for (const [method, { security, 'x-required-scope': scope }] of Object.entries(item)) {
        const takesNoKey = security.some((requirement) => Object.keys(requirement).length === 0);
        expect(await keyBadge(method, path), `${method} ${path}`).toBe(
          takesNoKey ? 'no key needed' : `key with scope ${scope}`,
        );
        expect(await locks(method, path), `${method} ${path}`).toBe(takesNoKey ? 0 : 1);
      }
    }
    expect(await keyBadge('get', '/pets')).toBe('no key needed');
    expect(await keyBadge('post', '/pets')).toBe('key with scope catalog');
    expect(await keyBadge('post', '/store/orders')).toBe('key with scope orders');
    // The introduction: three lines, and the rest folded.
    const folded = page.locator('.info .description details');
    expect(await folded.count()).toBe(5);
    expect(await folded.evaluateAll((all) => all.filter((d) => (d as HTMLDetailsElement).open).length)).toBe(
      0,
    );
    expect(await page.locator('.info .description li:not(details li)').count()).toBe(3);

    const lastOperation = await page.locator('.opblock').last().boundingBox();
    const height = Math.ceil((lastOperation?.y ?? 0) + (lastOperation?.height ?? 0) + 24);
    await page.screenshot({
      path: join(SCREENSHOTS, 'docs.png'),
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

  it('draws every expanded operation within about two screens (2,200 px at 1,400 px wide)', {
    timeout: 120_000,
  }, async () => {
    const document = await (await fetch(`${app.url}/openapi.json`)).json();
    const { page, outside, errors } = await openPage({ width: 1400, height: 1000 });
    await page.goto(`${app.url}/docs`);
    await page.locator('.opblock').first().waitFor();
    const heights: Record<string, number> = {};
    for (const [path, item] of Object.entries(
      document.paths as Record<string, Record<string, { operationId: string; tags: string[] }>>,
    )) {
      for (const [method, { operationId, tags }] of Object.entries(item)) {
        const block = page.locator(`#operations-${tags[0]}-${operationId}`);
        await block.locator('.opblock-summary-control').click();
        await block.locator('.responses-table').waitFor();
        heights[`${method.toUpperCase()} ${path}`] = Math.round((await block.boundingBox())?.height ?? 0);
        await block.locator('.opblock-summary-control').click();
        await block.locator('.responses-table').waitFor({ state: 'detached' });
      }
    }
    console.log('expanded operation heights (px):', JSON.stringify(heights));
    expect(Object.keys(heights)).toHaveLength(20);
    for (const [operation, height] of Object.entries(heights)) {
      expect(height, operation).toBeLessThanOrEqual(2200);
    }

    // The rate-limit headers are drawn in full where a client acts on them (429), and named once for the rest.
    const listPets = page.locator('#operations-Pets-listPets');
    await listPets.locator('.opblock-summary-control').click();
    await listPets.locator('.responses-table').waitFor();
    const headersOf = (status: number) =>
      listPets
        .locator(`.response[data-code="${status}"] .headers td.header-col:first-child`)
        .allTextContents();
    expect(await headersOf(429)).toEqual(
      expect.arrayContaining([
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'Retry-After',
      ]),
    );
    expect(await headersOf(200)).not.toContain('X-RateLimit-Limit');
    expect(await headersOf(200)).toContain('ETag');
    expect(await headersOf(400)).toEqual([]);
    expect(await listPets.locator('.shared-headers').textContent()).toContain(
      'Every response above carries X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset and X-RateLimit-Budget',
    );
    // The examples are the demo catalogue's, not zeros.
    const example = JSON.parse(
      (await listPets.locator('.response[data-code="200"] .example').first().textContent()) ?? '[]',
    );
    expect(example[0]).toMatchObject({ id: 1, name: 'Rex', categoryId: 1 });
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows each error status with its own example code, a readable deprecated badge, and no console warning', async () => {
    const { page, outside, errors, warnings } = await openPage();
    await page.goto(`${app.url}/docs`);
    await page.locator('.opblock').first().waitFor();
    // Opened: operations whose ids are int64 (a list of them in listPets, oneOf a number or digits in bodies).
    for (const [tag, operationId] of [
      ['Pets', 'listPets'],
      ['Pets', 'createPet'],
      ['Pets', 'getPetById'],
      ['Store', 'placeOrder'],
    ]) {
      const block = page.locator(`#operations-${tag}-${operationId}`);
      await block.locator('.opblock-summary-control').click();
      await block.locator('.try-out__btn').click();
      await block.locator('.execute').waitFor();
    }

    const example = async (operationId: string, status: number) =>
      JSON.parse(
        (await page
          .locator(`[id$="-${operationId}"] .response[data-code="${status}"] .example`)
          .first()
          .textContent()) ?? '{}',
      );
    expect(await example('getPetById', 404)).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(await example('getPetById', 410)).toMatchObject({ code: 'ENDPOINT_SUNSET', status: 410 });
    expect(await example('createPet', 401)).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
    expect(await example('createPet', 429)).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(await example('listPets', 503)).toMatchObject({ code: 'UNAVAILABLE', status: 503 });
    expect(await example('listPets', 400)).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect(await example('placeOrder', 409)).toMatchObject({ code: 'OUT_OF_STOCK', status: 409 });

    // The deprecated operation's method badge is readable: not faded, and at least WCAG AA's 4.5:1.
    const badge = await page.locator('.opblock-deprecated .opblock-summary-method').evaluate((element) => ({
      color: getComputedStyle(element).color,
      background: getComputedStyle(element).backgroundColor,
      opacity: getComputedStyle(element.closest('.opblock') as Element).opacity,
    }));
    expect(badge.opacity).toBe('1');
    expect(contrast(badge.color, badge.background)).toBeGreaterThanOrEqual(4.5);

    expect(warnings).toEqual([]);
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
  }, 90_000);
});
