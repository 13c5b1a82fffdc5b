import type { TestApp } from './app.ts';

/** The pet of a `pets(ids: [$id])` answer. */
export const petOf = (data: { pets: { edges: { node: unknown }[] } }) => data.pets.edges[0]?.node;

/**
 * Pet `id` read with `query` (a `pets(ids: [$id])` document) once, so that the response cache holds the answer;
 * `again` reads it anew after a write, to tell that the write shows.
 */
export async function cachedPet(app: Pick<TestApp, 'ok'>, query: string, id: number) {
  await app.ok(query, { id });
  return { again: async () => petOf(await app.ok(query, { id })) };
}
