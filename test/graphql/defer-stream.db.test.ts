import { request as httpRequest, type IncomingMessage } from 'node:http';
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { Defer20220824Handler } from '@apollo/client/incremental';
import { meros } from 'meros/node';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';

// @defer and @stream over multipart/mixed, read as real clients read it: meros (a multipart reader) and Apollo
// Client 4 with its handler for the incremental format this executor emits (graphql-js 17 alpha 2's).

const pets: { id: number; name: string }[] = [];
const app = useTestApp({ http: true });
beforeAll(async () => {
  for (const [name, quantity] of [
    ['Deferred one', 3],
    ['Deferred two', 4],
    ['Deferred three', 5],
  ] as const) {
    const pet = await app.createPet({ name });
    await app.ok(
      `mutation { updateInventory(petId: ${pet.id}, input: { quantity: ${quantity} }) { quantity } }`,
    );
    pets.push(pet);
  }
});

const ids = () => pets.map((pet) => pet.id).join(', ');
const DEFERRED = () => `query Deferred {
  pets(ids: [${ids()}]) { edges { node { id name ... @defer(label: "stock") { inventory { quantity } } } } }
}`;
const STREAMED = () =>
  `query Streamed { pets(ids: [${ids()}]) { edges @stream(initialCount: 1) { node { id name } } } }`;

/** POSTs a query asking for multipart/mixed, and reads its parts with meros as they arrive. */
function multipart(query: string): Promise<{ response: IncomingMessage; parts: unknown[] }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${app.url}/graphql`);
    const request = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'multipart/mixed; deferSpec=20220824, application/json',
          'x-api-key': app.apiKey,
        },
      },
      async (response) => {
        try {
          const parts = await meros<unknown>(response);
          if (!(Symbol.asyncIterator in Object(parts))) return resolve({ response, parts: [] });
          const seen: unknown[] = [];
          for await (const part of parts as AsyncIterable<{ body: unknown; json: boolean }>)
            seen.push(part.body);
          resolve({ response, parts: seen });
        } catch (error) {
          reject(error);
        }
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify({ query }));
  });
}

describe('@defer', () => {
  it('answers the page first and each pet’s stock in later parts of a multipart/mixed answer', async () => {
    const { response, parts } = await multipart(DEFERRED());
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^multipart\/mixed/);
    expect(response.headers['cache-control']).toBe('no-store');
    const [first, ...rest] = parts as { data?: unknown; hasNext: boolean; incremental?: unknown[] }[];
    expect(first).toEqual({
      data: { pets: { edges: pets.map(({ id, name }) => ({ node: { id, name } })) } },
      hasNext: true,
    });
    const incremental = rest.flatMap((part) => part.incremental ?? []);
    expect(incremental).toEqual(
      [3, 4, 5].map((quantity, i) => ({
        data: { inventory: { quantity } },
        path: ['pets', 'edges', i, 'node'],
        label: 'stock',
      })),
    );
    expect(rest.at(-1)?.hasNext).toBe(false);
  });

  it('is counted once by the rate limit, and never kept whole or in part by the response cache', async () => {
    const remaining = async () =>
      Number((await app.graphql('{ rateLimit { remaining } }')).headers.get('x-ratelimit-remaining'));
    const before = await remaining();
    const { response } = await multipart(DEFERRED());
    expect(Number(response.headers['x-ratelimit-remaining'])).toBe(before - 1);
    expect(await remaining()).toBe(before - 2);
    // The same document again: parts again, not a result the cache kept from the first.
    const again = await multipart(DEFERRED());
    expect((again.parts[0] as { hasNext: boolean }).hasNext).toBe(true);
    expect(again.parts.length).toBeGreaterThan(1);
  });

  it('refuses a client that accepts JSON only with 406 NOT_ACCEPTABLE saying what to accept', async () => {
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const response = await app.graphql(DEFERRED(), undefined, { headers: { accept } });
      expect(response.status).toBe(406);
      expect(response.body.errors?.[0]).toMatchObject({
        message: expect.stringContaining('accept multipart/mixed or text/event-stream'),
        extensions: { code: 'NOT_ACCEPTABLE', status: 406 },
      });
    }
  });
});

describe('@stream', () => {
  it('answers the first edge, then the others as incremental items', async () => {
    const { parts } = await multipart(STREAMED());
    const [first, ...rest] = parts as {
      data?: unknown;
      hasNext: boolean;
      incremental?: { items: unknown[] }[];
    }[];
    expect(first).toEqual({
      data: { pets: { edges: [{ node: { id: pets[0]?.id, name: 'Deferred one' } }] } },
      hasNext: true,
    });
    const items = rest.flatMap((part) => part.incremental ?? []).flatMap((increment) => increment.items);
    expect(items).toEqual(pets.slice(1).map(({ id, name }) => ({ node: { id, name } })));
  });
});

describe('Apollo Client 4', () => {
  it('assembles a deferred query with its incremental handler, the deferred fields merged in', async () => {
    const client = new ApolloClient({
      link: new HttpLink({ uri: `${app.url}/graphql`, headers: { 'x-api-key': app.apiKey } }),
      cache: new InMemoryCache(),
      incrementalHandler: new Defer20220824Handler(),
    });
    const result = await client.query({ query: gql(DEFERRED()), fetchPolicy: 'network-only' });
    const edges = (
      result.data as { pets: { edges: { node: { name: string; inventory?: { quantity: number } } }[] } }
    ).pets.edges;
    expect(edges.map(({ node }) => [node.name, node.inventory?.quantity])).toEqual([
      ['Deferred one', 3],
      ['Deferred two', 4],
      ['Deferred three', 5],
    ]);
  });
});

describe('the REST adapter', () => {
  it('is unaffected: a page is one JSON answer', async () => {
    const response = await fetch(`${app.url}/pets?limit=2`, {
      headers: { accept: 'multipart/mixed, application/json' },
    });
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await response.json()) as unknown[]).length).toBe(2);
  });
});
