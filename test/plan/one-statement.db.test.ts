import { afterAll, beforeAll, expect, it } from 'vitest';
import { NESTED_ROW } from '../../bench/scenarios.ts';
import { startSeededTwins, type Twins } from './twins.ts';

let twins: Twins;
beforeAll(async () => {
  twins = await startSeededTwins();
}, 120_000);
afterAll(() => twins?.close());

it("answers the bench's nested row (10 categories, their first 20 pets each, with stock) in one statement per request", async () => {
  const { planned, resolved } = await twins.graphql(NESTED_ROW);
  expect(planned).toEqual(resolved);
  expect(planned.status, planned.body).toBe(200);
  const categories = JSON.parse(planned.body).data.categories.edges;
  expect(categories).toHaveLength(10);
  const nodes = categories.reduce(
    (sum: number, c: { node: { pets: { edges: unknown[] } } }) => sum + c.node.pets.edges.length,
    0,
  );
  expect(nodes).toBeGreaterThan(100);
  // The resolvers' path, for comparison, runs one statement per level.
  expect((await twins.statementsOf(NESTED_ROW, undefined, undefined, 'resolved')).sql.length).toBeGreaterThan(
    1,
  );
  for (let request = 0; request < 3; request++) {
    const { answer, sql } = await twins.statementsOf(NESTED_ROW);
    expect(answer.body).toBe(planned.body);
    expect(sql).toHaveLength(1);
  }
});
