import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { printSchemaSorted, SCHEMA_FILE } from '../../src/graphql/print.ts';

it('schema.graphql is the printed, sorted schema (run npm run print-schema after changing the schema)', () => {
  expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(printSchemaSorted());
});
