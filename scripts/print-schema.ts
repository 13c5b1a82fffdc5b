// Writes schema.graphql, the printed schema that test/graphql/schema-print.test.ts keeps in step with the code.
import { writeFileSync } from 'node:fs';
import { printSchemaSorted, SCHEMA_FILE } from '../src/graphql/print.ts';

writeFileSync(SCHEMA_FILE, printSchemaSorted());
console.log(`wrote ${SCHEMA_FILE}`);
