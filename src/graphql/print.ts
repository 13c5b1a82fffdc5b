import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from './schema.ts';

export const SCHEMA_FILE = 'schema.graphql';

export const printSchemaSorted = () => `${printSchema(lexicographicSortSchema(schema))}\n`;
