import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import {
  printSchemaSorted,
  printSubgraphSchemaSorted,
  SCHEMA_FILE,
  SUBGRAPH_SCHEMA_FILE,
} from '../../src/graphql/print.ts';

it('schema.graphql is the printed, sorted schema (run npm run print-schema after changing the schema)', () => {
  expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(printSchemaSorted());
});

it('subgraph.graphql is the federation subgraph SDL (FEDERATION=on), printed by the same command', () => {
  expect(readFileSync(SUBGRAPH_SCHEMA_FILE, 'utf8')).toBe(printSubgraphSchemaSorted());
});

it('the schema without federation shows none of it: no @key, _service, _entities or _Any', () => {
  expect(printSchemaSorted()).not.toMatch(/@key|_service|_entities|_Any|_Entity|@link/);
});
