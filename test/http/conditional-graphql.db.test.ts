import { beforeAll, describe, expect, it } from 'vitest';
import { addDocuments, hashDocument } from '../../src/documents/repository.ts';
import { type SendOptions, useCountingTestApp } from '../support/app.ts';
import { createTestKey } from '../support/keys.ts';

let otherKey: string;
let petId: number;

const { app, storeStatementsOf } = useCountingTestApp({
  env: { RESPONSE_CACHE_ENTRIES: '0', HTTP_CACHE_MAX_AGE: '30' },
});
beforeAll(async () => {
  const pet = await app.createPet({ name: 'Rex' });
  petId = pet.id;
  await app.ok(`mutation { updateInventory(petId: ${pet.id}, input: { quantity: 5 }) { quantity } }`);
  otherKey = await createTestKey(app.prisma, 'business');
});

const PETS = '{ pets(first: 5) { edges { node { id name inventory { quantity } } } } }';

/** A GraphQL GET of `params`, asking for the GraphQL media type. */
const get = (
  params: Record<string, string>,
  { method = 'GET', ...options }: SendOptions & { method?: string } = {},
) =>
  app.send(method, `/graphql?${new URLSearchParams(params)}`, {
    ...options,
    headers: { accept: 'application/graphql-response+json', ...options.headers },
  });

async function tagOf(params: Record<string, string>, options: Parameters<typeof get>[1] = {}) {
  const response = await get(params, options);
  const body = response.body;
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  expect(response.status).toBe(200);
  return { tag: response.headers.get('etag') as string, cacheControl: response.headers.get('cache-control') };
}

describe('GraphQL GET queries answer with an entity tag', () => {
  it('text: a tag, public with the configured max-age, Vary; 304 on it, free and before anything runs', async () => {
    const first = await get({ query: PETS });
    const tag = first.headers.get('etag') as string;
    expect(tag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=30');
    expect(first.headers.get('vary')).toBe('Accept, Accept-Encoding, X-API-Key');
    const remaining = Number(first.headers.get('x-ratelimit-remaining'));
    const { result: again, sql } = await storeStatementsOf(() =>
      get({ query: PETS }, { headers: { 'if-none-match': tag } }),
    );
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(sql).toEqual([]);
    expect(again.headers.get('etag')).toBe(tag);
    expect(again.headers.get('cache-control')).toBe('public, max-age=30');
    expect(Number(again.headers.get('x-ratelimit-remaining'))).toBe(remaining);
    // HEAD is answered as GET.
    const head = await get({ query: PETS }, { method: 'HEAD', headers: { 'if-none-match': tag } });
    expect(head.status).toBe(304);
    // Another media type asked for is another answer.
    expect((await tagOf({ query: PETS }, { headers: { accept: 'application/json' } })).tag).not.toBe(tag);
  });

  it('a trusted documentId: the same tag and 304', async () => {
    const [document] = await addDocuments(app.prisma, [`query Pets ${PETS}`]);
    const documentId = `sha256:${document?.hash ?? hashDocument(`query Pets ${PETS}`)}`;
    const { tag } = await tagOf({ documentId });
    expect((await get({ documentId }, { headers: { 'if-none-match': tag } })).status).toBe(304);
  });

  it('a write changes the tag; a write to a table the query does not read does not', async () => {
    const categories = '{ categories(first: 5) { edges { node { id name } } } }';
    const { tag: pets } = await tagOf({ query: PETS });
    const { tag: before } = await tagOf({ query: categories });
    await app.ok(`mutation { updateInventory(petId: ${petId}, input: { quantity: 7 }) { quantity } }`);
    const after = await get({ query: PETS }, { headers: { 'if-none-match': pets } });
    expect(after.status).toBe(200);
    expect(JSON.stringify(after.body)).toContain('"quantity":7');
    expect((await tagOf({ query: categories })).tag).toBe(before);
  });

  it("the most restrictive hint wins: the caller's own are private, the quota never kept", async () => {
    const orders = `{ orders(first: 5) { edges { node { id } } } pets(first: 1) { edges { node { id } } } }`;
    const mine = await tagOf({ query: orders });
    expect(mine.cacheControl).toBe('private, no-cache');
    expect((await get({ query: orders }, { headers: { 'if-none-match': mine.tag } })).status).toBe(304);
    const stranger = await get({ query: orders }, { key: otherKey, headers: { 'if-none-match': mine.tag } });
    expect(stranger.status).toBe(200);
    for (const query of [
      '{ rateLimit { remaining } pets(first: 1) { edges { node { id } } } }',
      '{ viewer { plan } }',
    ]) {
      const response = await get({ query });
      expect(response.status).toBe(200);
      expect(response.headers.get('etag'), query).toBeNull();
      expect(response.headers.get('cache-control'), query).toBe('no-store');
    }
  });

  it('POST, errors, mutations over GET and refusals are never tagged: no-store', async () => {
    const post = await app.postGraphQL({ query: PETS });
    expect(post.status).toBe(200);
    expect(post.headers.get('etag')).toBeNull();
    expect(post.headers.get('cache-control')).toBe('no-store');
    for (const query of [
      '{ pet(id: 999999999) { id } }',
      '{ nope }',
      'mutation { deleteCategory(id: 1) { id } }',
    ]) {
      const response = await get({ query }, { headers: { 'if-none-match': '*' } });
      expect(response.status, query).not.toBe(304);
      expect(response.headers.get('etag'), query).toBeNull();
      expect(response.headers.get('cache-control'), query).toBe('no-store');
    }
  });

  it('past the quota, a revalidation still answers 304; a full read is refused 429, no-store', async () => {
    const key = await createTestKey(app.prisma, 'enterprise', { perMinute: 2, perDay: 100 });
    const { tag } = await tagOf({ query: PETS }, { key });
    await get({ query: PETS }, { key });
    const refused = await get({ query: PETS }, { key });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    const revalidated = await get({ query: PETS }, { key, headers: { 'if-none-match': tag } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('x-ratelimit-remaining')).toBe('0');
  });
});
