// Writes the error tables of docs/errors.md from the catalogue (src/contract/errors.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { ERRORS_DOC_FILE, withErrorTables } from '../src/contract/error-docs.ts';

writeFileSync(ERRORS_DOC_FILE, withErrorTables(readFileSync(ERRORS_DOC_FILE, 'utf8')));
console.log(`wrote ${ERRORS_DOC_FILE}`);
