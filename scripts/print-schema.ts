// Writes schema.graphql, the printed schema, and subgraph.graphql, the federation subgraph's SDL, which
// test/graphql/schema-print.test.ts keeps in step with the code.
import { writeFileSync } from 'node:fs';
import {
  printSchemaSorted,
  printSubgraphSchemaSorted,
  SCHEMA_FILE,
  SUBGRAPH_SCHEMA_FILE,
} from '../src/graphql/print.ts';

writeFileSync(SCHEMA_FILE, printSchemaSorted());
writeFileSync(SUBGRAPH_SCHEMA_FILE, printSubgraphSchemaSorted());
console.log(`wrote ${SCHEMA_FILE} and ${SUBGRAPH_SCHEMA_FILE}`);
