import { randomUUID } from 'node:crypto';
import { createClient } from 'graphql-sse';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../browser/chromium.ts';
import { REDIS_URL } from '../ratelimit/stores.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { type GatewayProcess, startGatewayProcess } from '../support/gateway-process.ts';
import { createTestKey } from '../support/keys.ts';
import { stockedPet } from '../support/stocked-pet.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

// A gateway that shuts down ends its streams so that clients take it for a dropped connection and reconnect:
// graphql-sse's client (which takes `complete` as "the operation is finished") and a browser's EventSource, both
// behind a load balancer (a TCP proxy here) that moves them to the other instance. PostgreSQL and Redis, as at scale.

let database: TestDatabase;
let browser: Browser;
let proxy: TcpProxy;
let a: GatewayProcess;
let b: GatewayProcess;
let apiKey: string;
beforeAll(async () => {
  database = await createTestDatabase({}, 'postgresql');
  apiKey = await createTestKey(database.db.prisma, 'business');
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL,
    RATE_LIMIT_REDIS_PREFIX: `test-reconnect-${randomUUID()}`,
    SEED_DEMO_DATA: 'false',
    SHUTDOWN_DELAY_MS: '0',
  };
  [a, b, browser] = await Promise.all([startGatewayProcess(env), startGatewayProcess(env), launchChromium()]);
  proxy = await startTcpProxy({ host: '127.0.0.1', port: a.port });
});
afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await Promise.all([a?.cleanUp(), b?.cleanUp()]);
  await database?.drop();
});

describe('a gateway that shuts down', () => {
  it('has graphql-sse clients and EventSource reconnect to another instance, and see its changes', async () => {
    const petId = await stockedPet(database.db.prisma, 0, 'Watched');
    const front = `http://127.0.0.1:${proxy.port}`;
    const query = `subscription { inventoryChanged(petId: ${petId}) { quantity } }`;
    let quantity = 0;
    const setStock = async (gateway: GatewayProcess) => {
      quantity += 1;
      const response = await fetch(`${gateway.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({
          query: `mutation { updateInventory(petId: ${petId}, input: { quantity: ${quantity} }) { quantity } }`,
        }),
      });
      expect(response.status).toBe(200);
    };

    // graphql-sse's client, with its default retries, waiting no time between them.
    const client = createClient({
      url: `${front}/graphql`,
      headers: { 'x-api-key': apiKey },
      retry: async () => {},
    });
    const seen: number[] = [];
    const ended: string[] = [];
    client.subscribe<{ inventoryChanged: { quantity: number } }>(
      { query },
      {
        next: (result) => {
          if (result.data) seen.push(result.data.inventoryChanged.quantity);
        },
        error: (error) => ended.push(`error: ${String(error)}`),
        complete: () => ended.push('complete'),
      },
    );
    // A browser's EventSource, from a page of the same origin.
    const page = await browser.newPage();
    await page.goto(`${front}/healthz`);
    await page.evaluate(
      (url) => {
        const state = { seen: [] as number[], opens: 0 };
        Object.assign(window, { state });
        const source = new EventSource(url);
        source.addEventListener('open', () => {
          state.opens += 1;
        });
        source.addEventListener('next', (event) => {
          state.seen.push(JSON.parse((event as MessageEvent).data).data.inventoryChanged.quantity);
        });
      },
      `/graphql?query=${encodeURIComponent(query)}`,
    );
    const browserSeen = () =>
      page.evaluate(() => (window as unknown as { state: { seen: number[] } }).state.seen);

    // Both listen: a change made now reaches them.
    await expect
      .poll(async () => {
        await setStock(a);
        return seen.length > 0 && (await browserSeen()).length > 0;
      })
      .toBe(true);

    // The load balancer sends new connections to b; a stops.
    proxy.retarget({ host: '127.0.0.1', port: b.port });
    const before = quantity;
    a.child.kill('SIGTERM');
    expect(await a.exited).toBe(0);

    // Both reconnect (through the balancer, to b) and see b's changes.
    await expect
      .poll(
        async () => {
          await setStock(b);
          return seen.some((q) => q > before) && (await browserSeen()).some((q) => q > before);
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(true);
    expect(ended).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { state: { opens: number } }).state.opens)).toBe(
      2,
    );
    client.dispose();
    await page.close();
  }, 90_000);
});
