import { createSchema, createYoga } from 'graphql-yoga';
import { expect, it } from 'vitest';
import { FACTS_EXTENSION, NO_FACTS } from '../../src/graphql/field-facts/facts.ts';
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

it("never keeps a result that selects a field the schema marks as the caller's own, whatever its name", async () => {
  let calls = 0;
  const yoga = createYoga({
    schema: createSchema({
      typeDefs: 'type Query { mine: Int! rateLimit: Int! }',
      resolvers: { Query: { mine: () => ++calls, rateLimit: () => ++calls } },
    }),
    plugins: [useResponseCache({ storeVersion: () => 1, maxEntries: 10 })],
  });
  // Marked the way the gateway's Pothos plugin keeps a field's facts.
  const mine = yoga.getEnveloped().schema.getQueryType()?.getFields().mine;
  if (!mine) throw new Error('no field mine');
  mine.extensions = { ...mine.extensions, [FACTS_EXTENSION]: { ...NO_FACTS, callerDependent: true } };
  const run = async (query: string) => {
    const response = await yoga.fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return ((await response.json()) as { data: Record<string, number> }).data;
  };
  const first = await run('{ mine }');
  expect(await run('{ mine }')).not.toEqual(first);
  // Through an alias and a fragment too.
  const aliased = await run('{ me: mine }');
  expect(await run('{ me: mine }')).not.toEqual(aliased);
  const viaFragment = await run('{ ...F } fragment F on Query { mine }');
  expect(await run('{ ...F } fragment F on Query { mine }')).not.toEqual(viaFragment);
  // A field not marked is kept, even one named like the gateway's own caller field.
  const unmarked = await run('{ rateLimit }');
  expect(await run('{ rateLimit }')).toEqual(unmarked);
});
