import { createSchema, createYoga } from 'graphql-yoga';
import { expect, it } from 'vitest';
import { useResponseCache } from '../../src/graphql/plugins/response-cache.ts';

// The plugin alone, on a schema that counts its executions: what it keeps and for how long.
function cachedServer(maxEntries: number, context: Record<string, unknown> = {}) {
  let storeVersion = 1;
  const executed: number[] = [];
  const yoga = createYoga({
    schema: createSchema({
      typeDefs: 'type Query { echo(n: Int!): Int! }',
      resolvers: {
        Query: {
          echo: (_parent: unknown, { n }: { n: number }) => {
            executed.push(n);
            return n;
          },
        },
      },
    }),
    context,
    plugins: [useResponseCache({ storeVersion: () => storeVersion, maxEntries })],
  });
  /** The numbers whose query executed (rather than being answered from the cache). */
  const executedFor = async (...numbers: number[]) => {
    executed.length = 0;
    for (const n of numbers) {
      const response = await yoga.fetch('http://yoga/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'query($n: Int!) { echo(n: $n) }', variables: { n } }),
      });
      expect(await response.json()).toEqual({ data: { echo: n } });
    }
    return [...executed];
  };
  return { executedFor, commit: () => storeVersion++ };
}

it('keeps at most maxEntries results, the least recently used going first', async () => {
  const server = cachedServer(2);
  expect(await server.executedFor(1, 2, 1, 2)).toEqual([1, 2]);
  // 2, then 1 were read again: 2 is the least recently used, and 3 takes its place.
  expect(await server.executedFor(2, 1, 3)).toEqual([3]);
  expect(await server.executedFor(1, 3)).toEqual([]);
  expect(await server.executedFor(2)).toEqual([2]);
});

it('serves nothing kept before the store version moved', async () => {
  const server = cachedServer(10);
  expect(await server.executedFor(1, 2, 1)).toEqual([1, 2]);
  server.commit();
  expect(await server.executedFor(1, 2, 1, 2)).toEqual([1, 2]);
});

it("neither serves nor keeps a result read in a keyed write's transaction, which may yet roll back", async () => {
  const server = cachedServer(10, { transaction: {} });
  expect(await server.executedFor(1, 1, 1)).toEqual([1, 1, 1]);
});
