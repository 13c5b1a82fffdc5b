import { beforeAll, describe, expect, it } from 'vitest';
import { useAppWithChromium } from '../browser/demo-gateway.ts';
import { lockTable, postForParts } from '../support/deferred.ts';

// The first part of a deferred answer leaves before the deferred work is done. The deferred fields read the
// inventory table, which another PostgreSQL session holds locked (ACCESS EXCLUSIVE blocks reads): until the lock
// goes, the deferred part cannot exist, so a first part seen by then was sent ahead of it. No timer decides.

// The lock is PostgreSQL's: the app's database is one, whatever the project's.
process.env.TEST_DB = 'postgresql';
const { app, browser } = useAppWithChromium();
let petId: number;
let schema: string;
beforeAll(async () => {
  schema = new URL(app.database.url).searchParams.get('schema') as string;
  petId = (await app.createPet({ name: 'Waiting' })).id;
});

const QUERY = () =>
  `{ pets(ids: [${petId}]) { edges { node { name ... @defer { inventory { quantity } } } } } }`;

const lockInventory = () => lockTable(schema, 'InventoryItem');

describe('a deferred answer', () => {
  it('sends its first part while the deferred fields still wait on the database (read with meros)', async () => {
    const lock = await lockInventory();
    try {
      const parts = await postForParts(app.url, QUERY());
      const first = await parts.next();
      expect(first.value?.body).toEqual({
        data: { pets: { edges: [{ node: { name: 'Waiting' } }] } },
        hasNext: true,
      });
      await lock.release();
      const second = await parts.next();
      expect(second.value?.body).toMatchObject({
        incremental: [{ data: { inventory: { quantity: 0 } }, path: ['pets', 'edges', 0, 'node'] }],
      });
    } finally {
      await lock.release();
    }
  });

  it('reaches a page in Chromium part by part', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/healthz`);
    const lock = await lockInventory();
    try {
      await page.evaluate(
        ({ url, query }) => {
          const state = { chunks: [] as string[], done: false };
          (window as unknown as { state: typeof state }).state = state;
          void fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'multipart/mixed' },
            body: JSON.stringify({ query }),
          }).then(async (response) => {
            const reader = (response.body as ReadableStream<Uint8Array>).getReader();
            const decoder = new TextDecoder();
            for (;;) {
              const { done, value } = await reader.read();
              if (done) break;
              state.chunks.push(decoder.decode(value));
            }
            state.done = true;
          });
        },
        { url: `${app.url}/graphql`, query: QUERY() },
      );
      const seen = () =>
        page.evaluate(() => (window as unknown as { state: { chunks: string[] } }).state.chunks.join(''));
      await page.waitForFunction(() =>
        (window as unknown as { state: { chunks: string[] } }).state.chunks
          .join('')
          .includes('"hasNext":true'),
      );
      expect(await seen()).not.toContain('incremental');
      await lock.release();
      await page.waitForFunction(() => (window as unknown as { state: { done: boolean } }).state.done);
      expect(await seen()).toContain('"incremental":[{"data":{"inventory":{"quantity":0}}');
    } finally {
      await lock.release();
      await context.close();
    }
  });
});
