import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { openDatabase } from '../../src/db/client.ts';
import { createPipeline } from '../../src/http/pipeline.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { ROUTES } from '../../src/rest/routes.ts';
import { createRestClient } from '../rest/client.ts';
import { type SendOptions, useCountingTestApp } from '../support/app.ts';
import { injectInto } from '../support/inject.ts';
import { createTestKey } from '../support/keys.ts';
import { perFile } from '../support/per-file.ts';
import { requestHelpers } from '../support/requests.ts';

// Two gateways on one database, each with its own memory: what one tags, the other tags alike, and a write
// through either changes both.
let otherKey: string;
let petId: number;
let categoryId: number;

const { app, storeStatementsOf } = useCountingTestApp({ env: { RESPONSE_CACHE_ENTRIES: '0' } });
/** The other gateway, sent the app's key unless told otherwise. */
const other = perFile(
  async () => {
    const db = await openDatabase(app.database.url);
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: app.database.url, PORT: '0' });
    const pipeline = await createPipeline({ config, db, logger: createLogger('silent') });
    return {
      ...requestHelpers(injectInto(pipeline.handle), app.apiKey),
      close: async () => {
        await pipeline.close();
        await db.close();
      },
    };
  },
  (gateway) => gateway.close(),
);
beforeAll(async () => {
  const pet = await app.createPet({ name: 'Rex' });
  petId = pet.id;
  categoryId = pet.categoryId;
  await app.ok(`mutation { updateInventory(petId: ${pet.id}, input: { quantity: 5 }) { quantity } }`);
  otherKey = await createTestKey(app.prisma, 'business');
});

/** A GET (or `method`) of `path` from the app, or from the other gateway when `via` is it. */
const get = (
  path: string,
  { via = app, method = 'GET', ...options }: SendOptions & { via?: typeof other; method?: string } = {},
) => via.send(method, path, options);

async function tagOf(path: string, options: Parameters<typeof get>[1] = {}): Promise<string> {
  const response = await get(path, options);
  expect(response.status, path).toBe(200);
  const tag = response.headers.get('etag');
  expect(tag, path).toMatch(/^W\/"[\w-]+"$/);
  return tag as string;
}

describe('REST GETs answer with an entity tag', () => {
  it('the same tag for the same request, in either gateway; Cache-Control by who may keep it; Vary', async () => {
    const response = await get('/pets?limit=5');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, no-cache');
    expect(response.headers.get('vary')).toBe('Accept, Accept-Encoding, X-API-Key');
    const tag = response.headers.get('etag');
    expect(await tagOf('/pets?limit=5')).toBe(tag);
    expect(await tagOf('/pets?limit=5', { via: other })).toBe(tag);
    // Another request, another tag.
    expect(await tagOf('/pets?limit=6')).not.toBe(tag);
  });

  it('If-None-Match with the current tag: 304, no body, the rate-limit headers, no quota spent, nothing run', async () => {
    const tag = await tagOf(`/pets/${petId}`);
    const before = await get(`/pets/${petId}`);
    const remaining = Number(before.headers.get('x-ratelimit-remaining'));
    for (let i = 0; i < 3; i++) {
      const { result: response, sql } = await storeStatementsOf(() =>
        get(`/pets/${petId}`, { headers: { 'if-none-match': tag } }),
      );
      expect(response.status).toBe(304);
      expect(response.text).toBe('');
      expect(sql).toEqual([]);
      expect(response.headers.get('etag')).toBe(tag);
      expect(response.headers.get('cache-control')).toBe('public, no-cache');
      expect(response.headers.get('x-ratelimit-limit')).toBe(before.headers.get('x-ratelimit-limit'));
      expect(Number(response.headers.get('x-ratelimit-remaining'))).toBe(remaining);
      expect(response.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    }
    // A list of tags, and a strong form of the weak tag match too; another tag, or `*`, does not.
    for (const header of [`W/"other", ${tag}`, tag.slice(2)]) {
      expect((await get(`/pets/${petId}`, { headers: { 'if-none-match': header } })).status).toBe(304);
    }
    expect((await get(`/pets/${petId}`, { headers: { 'if-none-match': '*' } })).status).toBe(200);
    const changed = await get(`/pets/${petId}`, { headers: { 'if-none-match': 'W/"other"' } });
    expect(changed.status).toBe(200);
    expect(Number(changed.headers.get('x-ratelimit-remaining'))).toBe(remaining - 2);
  });

  it('HEAD agrees with GET: the same tag, and 304 on it', async () => {
    const tag = await tagOf('/categories');
    const head = await get('/categories', { method: 'HEAD' });
    expect(head.headers.get('etag')).toBe(tag);
    const conditional = await get('/categories', { method: 'HEAD', headers: { 'if-none-match': tag } });
    expect(conditional.status).toBe(304);
    expect(conditional.headers.get('etag')).toBe(tag);
  });

  it("a write changes the tags of the reads of its tables, in both gateways, and leaves the others'", async () => {
    const pets = await tagOf('/pets');
    const categories = await tagOf('/categories');
    const otherPets = await tagOf('/pets', { via: other });
    expect(otherPets).toBe(pets);
    // Through the other gateway: this one's memory has seen nothing of it.
    const created = await other.post('/pets', { name: 'Tom', categoryId }, { key: otherKey });
    expect(created.status).toBe(201);
    const after = await get('/pets', { headers: { 'if-none-match': pets } });
    expect(after.status).toBe(200);
    expect(after.body.map((pet: { name: string }) => pet.name)).toContain('Tom');
    expect(after.headers.get('etag')).not.toBe(pets);
    expect(await tagOf('/pets', { via: other })).toBe(after.headers.get('etag'));
    expect(await tagOf('/categories')).toBe(categories);
    // A write by another connection to the database, neither gateway's.
    const db = await openDatabase(app.database.url);
    try {
      await db.prisma.category.create({ data: { name: 'Written elsewhere' } });
    } finally {
      await db.close();
    }
    expect(await tagOf('/categories')).not.toBe(categories);
    expect((await get('/categories', { headers: { 'if-none-match': categories } })).status).toBe(200);
  });

  it("a caller's own answers are private, and one caller's tag is not another's", async () => {
    await app.ok(`mutation { placeOrder(input: { petId: ${petId} }) { id } }`);
    const response = await get('/store/orders');
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
    const tag = response.headers.get('etag') as string;
    expect((await get('/store/orders', { headers: { 'if-none-match': tag } })).status).toBe(304);
    const stranger = await get('/store/orders', { key: otherKey, headers: { 'if-none-match': tag } });
    expect(stranger.status).toBe(200);
    expect(stranger.headers.get('etag')).not.toBe(tag);
    const anonymous = await get('/store/orders', { key: null, headers: { 'if-none-match': tag } });
    expect(anonymous.status).toBe(200);
  });

  it('every GET route: 200 with its tag, then 304 on it, each as /openapi.json documents it', async () => {
    const client = await createRestClient(app);
    const order = await app.ok(`mutation { placeOrder(input: { petId: ${petId} }) { id } }`);
    const ids: Record<string, number> = { petId, categoryId, orderId: order.placeOrder.id };
    const paths = ROUTES.filter((route) => route.method === 'GET').map((route) =>
      route.path.replace(/\{(\w+)\}/g, (_, name: string) => String(ids[name])),
    );
    for (const path of paths) {
      const full = await client.get(path);
      expect(full.status, path).toBe(200);
      const etag = full.headers.get('etag') as string;
      const revalidated = await client.get(path, { headers: { 'if-none-match': etag } });
      expect(revalidated.status, path).toBe(304);
      expect(revalidated.text, path).toBe('');
    }
  });

  it('errors, writes and unknown keys are never tagged nor answered 304', async () => {
    const missing = await get('/pets/999999999');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('etag')).toBeNull();
    expect(missing.headers.get('cache-control')).toBe('no-store');
    const tag = await tagOf('/categories');
    const unknownKey = await get('/categories', { key: 'psk_unknown', headers: { 'if-none-match': tag } });
    expect(unknownKey.status).toBe(401);
    expect(unknownKey.headers.get('cache-control')).toBe('no-store');
    const write = await app.post('/categories', { name: 'Birds' }, { headers: { 'if-none-match': '*' } });
    expect(write.status).toBe(201);
    expect(write.headers.get('etag')).toBeNull();
    expect(write.headers.get('cache-control')).toBe('no-store');
  });
});
