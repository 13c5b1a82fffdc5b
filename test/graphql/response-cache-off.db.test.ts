import { expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';

// Where the response cache is off, every read executes: on PostgreSQL (no per-request check of "has anything
// changed?" short of a round trip) and on SQLite with RESPONSE_CACHE_ENTRIES=0.
let statements = 0;
const app = useTestApp({
  env: process.env.TEST_DB === 'postgresql' ? {} : { RESPONSE_CACHE_ENTRIES: '0' },
  onQuery: (sql) => {
    if (!/ApiKey/i.test(sql)) statements++;
  },
});

it('runs every read', async () => {
  const pet = await app.createPet({ name: 'Uncached' });
  const query = 'query($id: Int64!) { pets(ids: [$id]) { edges { node { id name } } } }';
  await app.ok(query, { id: pet.id });
  const before = statements;
  await app.ok(query, { id: pet.id });
  expect(statements).toBeGreaterThan(before);
});
