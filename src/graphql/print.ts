import { printSubgraphSchema } from '@apollo/subgraph';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchema } from './schema.ts';

export const SCHEMA_FILE = 'schema.graphql';

/** The subgraph's SDL with its federation directives, as `_service { sdl }` answers it (FEDERATION=on). */
export const SUBGRAPH_SCHEMA_FILE = 'subgraph.graphql';

export const printSchemaSorted = () => `${printSchema(lexicographicSortSchema(buildSchema()))}\n`;

export const printSubgraphSchemaSorted = () =>
  `${printSubgraphSchema(buildSchema(undefined, { federation: true }))}\n`;
