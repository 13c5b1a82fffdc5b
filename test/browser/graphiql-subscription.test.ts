import { describe, expect, it } from 'vitest';
import { blockOutsideLoopback } from './chromium.ts';
import { useAppWithChromium } from './demo-gateway.ts';

const { app, browser } = useAppWithChromium();

describe('GraphiQL at /graphql', () => {
  it('runs a subscription and shows the change a write over HTTP makes', async () => {
    const pet = await app.createPet({ name: 'Watched' });
    const context = await browser.newContext();
    const outside = await blockOutsideLoopback(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    const subscription = `subscription Stock { inventoryChanged(petId: ${pet.id}) { petId quantity status } }`;
    await page.goto(`${app.url}/graphql?query=${encodeURIComponent(subscription)}`);
    const run = page.locator('.graphiql-execute-button');
    await run.waitFor();
    const [stream] = await Promise.all([
      // GraphiQL opens a subscription as a GET with the operation in the URL, accepting text/event-stream.
      page.waitForResponse((r) => r.request().method() === 'GET' && r.url().includes('operationName=Stock')),
      run.click(),
    ]);
    expect(stream.status()).toBe(200);
    expect(stream.headers()['content-type']).toBe('text/event-stream');

    await app.ok(
      `mutation($id: Int64!) { updateInventory(petId: $id, input: { quantity: 42 }) { quantity } }`,
      {
        id: pet.id,
      },
    );
    await expect
      .poll(() => page.locator('.graphiql-response').textContent(), { timeout: 10_000 })
      .toMatch(/"quantity":\s*42/);
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
