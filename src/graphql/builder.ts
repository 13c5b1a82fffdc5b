import SchemaBuilder from '@pothos/core';
import DirectivesPlugin from '@pothos/plugin-directives';
import FederationPlugin from '@pothos/plugin-federation';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import type PrismaTypes from '../generated/pothos-types.ts';
import { getDatamodel } from '../generated/pothos-types.ts';
import type { Context } from './context.ts';
import FieldFactsPlugin from './field-facts/index.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './paging.ts';
import { DateTimeScalar, Int64Scalar } from './scalars.ts';

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  Scalars: {
    Int64: { Input: bigint; Output: bigint | number };
    DateTime: { Input: Date; Output: Date };
  };
}>({
  // First, so that its resolver wrappers (a mutation's savepoint) hold everything the others do. Directives and
  // Federation mark the entities (`@key`) for the subgraph's SDL; they change nothing else (graphql/schema.ts).
  plugins: [FieldFactsPlugin, DirectivesPlugin, PrismaPlugin, FederationPlugin, RelayPlugin],
  defaultFieldNullability: false,
  prisma: {
    client: (context) => context.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
    maxConnectionSize: MAX_PAGE_SIZE,
    defaultConnectionSize: DEFAULT_PAGE_SIZE,
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    nodeQueryOptions: false,
    nodesQueryOptions: false,
  },
});

builder.addScalarType('Int64', Int64Scalar);
builder.addScalarType('DateTime', DateTimeScalar);
builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
