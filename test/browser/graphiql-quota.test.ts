import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { blockOutsideLoopback } from './chromium.ts';
import { useAppWithChromium } from './demo-gateway.ts';

// GraphiQL once the anonymous quota is spent: its schema load is counted in the introspection budget, and a key
// typed in the headers editor reaches the schema without a reload. The HTTP side is
// test/ratelimit/introspection.test.ts.

const { app, browser } = useAppWithChromium({
  env: { RATE_LIMIT_PLANS: '{"free":{"perMinute":2}}', RATE_LIMIT_INTROSPECTION_PER_MINUTE: '5' },
  demo: true,
});

const isSchemaLoad = (response: Response) =>
  new URL(response.url()).pathname === '/graphql' &&
  (response.request().postData() ?? response.url()).includes('IntrospectionQuery');

async function showsQueryType(page: Page) {
  await page.locator('button[aria-label="Show Documentation Explorer"]').click();
  const explorer = page.locator('.graphiql-doc-explorer');
  await explorer
    .locator('a', { hasText: /^Query$/ })
    .first()
    .waitFor();
  await page.locator('button[aria-label="Hide Documentation Explorer"]').click();
}

describe('GraphiQL with the anonymous quota spent', () => {
  it('loads the schema, and loads it again with the key typed in the headers editor', async () => {
    // This address spends its Free budget.
    for (const expected of [200, 200, 429]) expect((await fetch(`${app.url}/pets`)).status).toBe(expected);
    const schemaLoads: string[] = [];

    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    const outside = await blockOutsideLoopback(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('response', (response) => {
      if (isSchemaLoad(response))
        schemaLoads.push(`${response.status()} ${response.request().headers()['x-api-key'] ?? 'anonymous'}`);
    });

    const [firstLoad] = await Promise.all([
      page.waitForResponse(isSchemaLoad),
      page.goto(`${app.url}/graphql`),
    ]);
    expect(firstLoad.request().method()).toBe('GET');
    expect(firstLoad.status()).toBe(200);
    expect(await firstLoad.headerValue('x-ratelimit-budget')).toBe('introspection');
    await showsQueryType(page);

    // The key replaces the headers; the schema is fetched again with it, without a reload.
    const headers = page.locator('.graphiql-editor-tool .monaco-editor[data-uri$="-request-headers.json"]');
    await headers.click();
    await page.keyboard.press('ControlOrMeta+A');
    // Pasted: typed, Monaco would close the braces and quotes itself.
    await page.evaluate(
      (text) => navigator.clipboard.writeText(text),
      JSON.stringify({ 'X-API-Key': app.apiKey }),
    );
    const [secondLoad] = await Promise.all([
      page.waitForResponse(isSchemaLoad),
      page.keyboard.press('ControlOrMeta+V'),
    ]);
    expect(await secondLoad.request().headerValue('x-api-key')).toBe(app.apiKey);
    expect(secondLoad.status()).toBe(200);
    expect(await secondLoad.headerValue('x-ratelimit-budget')).toBe('introspection');
    await showsQueryType(page);

    // And the key answers the default query, which the spent address could not. Only schema loads go as GET.
    const [run] = await Promise.all([
      page.waitForResponse((r) => r.request().postData()?.includes('Catalogue') === true),
      page.locator('.graphiql-execute-button').click(),
    ]);
    expect(run.request().method()).toBe('POST');
    expect(run.status()).toBe(200);
    expect(await run.headerValue('x-ratelimit-budget')).toBe('plan');
    await expect.poll(() => page.locator('.graphiql-response').textContent()).toContain('"Rex"');

    // One load each time: none while the page fills its editors in.
    expect(schemaLoads).toEqual(['200 anonymous', `200 ${app.apiKey}`]);
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);
});
