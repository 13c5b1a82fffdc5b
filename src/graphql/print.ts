import { lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchema } from './schema.ts';

export const SCHEMA_FILE = 'schema.graphql';

export const printSchemaSorted = () => `${printSchema(lexicographicSortSchema(buildSchema()))}\n`;
