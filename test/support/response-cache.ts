import { expect } from 'vitest';
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

type StoreStatementsOf = <T>(request: () => Promise<T>) => Promise<{ result: T; sql: string[] }>;

/** Asserts that `read`, run again, is answered from the response cache: no SQL, and the answer `first` had. */
export async function expectFromCache<T>(
  storeStatementsOf: StoreStatementsOf,
  read: () => Promise<T>,
  first: { result: T },
) {
  const again = await storeStatementsOf(read);
  expect(again.sql).toEqual([]);
  expect(again.result).toEqual(first.result);
}
