import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';

// The response cache off: a cached page would run no statement at all, whatever its reads cost.
let statements: string[] = [];

const app = useTestApp({ env: { RESPONSE_CACHE_ENTRIES: '0' }, onQuery: (sql) => statements.push(sql) });
beforeAll(async () => {
  const categories = await Promise.all(
    ['A', 'B', 'C', 'D'].map(
      async (name) =>
        (await app.ok(`mutation { createCategory(input: { name: "${name}" }) { id } }`)).createCategory.id,
    ),
  );
  for (let i = 0; i < 100; i++) await app.createPet({ name: `pet-${i}`, categoryId: categories[i % 4] });
});

const PAGE = `query($first: Int!) {
  pets(first: $first) { edges { node { id name category { id name } inventory { quantity status } } } pageInfo { hasNextPage } }
}`;

async function statementsFor(first: number) {
  statements = [];
  const { pets } = await app.ok(PAGE, { first });
  expect(pets.edges).toHaveLength(first);
  // Statements that read the store; the API key lookup is the rate-limit layer's and is counted apart.
  return statements.filter((sql) => !/ApiKey/i.test(sql));
}

it('reads a page of 100 pets with category and inventory in a constant number of statements', async () => {
  const forTen = await statementsFor(10);
  const forHundred = await statementsFor(100);
  expect(forTen.length).toBeGreaterThan(0);
  expect(forHundred.length).toBe(forTen.length);
  expect(forHundred.length).toBeLessThanOrEqual(3);
  // The same page again executes again: what was counted is the page's reads, not a cache's answer.
  expect(await statementsFor(100)).toEqual(forHundred);
  console.log(`[${process.env.TEST_DB}] 100-pet page: ${forHundred.length} SQL statements`);
});
