import {
  type DocumentNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  isObjectType,
  isUnionType,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { type CacheScope, mostRestrictive } from '../contract/http-caching.ts';
import { factsOf } from './field-facts/facts.ts';

/** What a document's results are read from: some tables (by Prisma model name), or, when unknown, all. */
export type Dependencies = readonly string[] | 'all';

/** Who may keep a document's results, and what they are read from. */
export interface CachePolicy {
  scope: CacheScope;
  tables: Dependencies;
}

/**
 * A document's cache policy, by the schema's field facts. Its scope is the most restrictive of its fields'
 * (`cache`). A Prisma object type reads its model's table, a connection or edge its node's; a field names the
 * tables its type does not show (`readsTables`, by Prisma model name); a union (federation's entities) its
 * members'. A root field whose type shows no table
 * and that names none makes its results depend on every table. A field the builder did not make has no facts
 * and is public (introspection's: it reads no table).
 */
export function cachePolicyOf(document: DocumentNode, schema: GraphQLSchema): CachePolicy {
  const typeInfo = new TypeInfo(schema);
  const tables = new Set<string>();
  let all = false;
  let scope: CacheScope = 'public';
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      OperationDefinition(node) {
        if (node.operation !== 'query') scope = 'no-store';
      },
      Field(node) {
        if (node.name.value.startsWith('__')) return;
        const field = typeInfo.getFieldDef();
        // A field the schema does not have: the request fails validation, and its answer is never kept.
        if (!field) {
          scope = 'no-store';
          return;
        }
        const facts = factsOf(field);
        // A caller-dependent field is never public, whatever its hint says.
        scope = mostRestrictive(
          scope,
          facts.callerDependent ? mostRestrictive(facts.cache, 'private') : facts.cache,
        );
        for (const table of facts.readsTables) tables.add(table);
        const models = modelsOf(getNamedType(field.type));
        for (const model of models) tables.add(model);
        // Below the root, a field without a table of its own is read from its parent object, whose field counted it.
        const parent = typeInfo.getParentType();
        if (facts.readsTables.length === 0 && models.length === 0 && parent && isRootType(parent, schema)) {
          all = true;
        }
      },
    }),
  );
  return { scope, tables: all ? 'all' : [...tables].sort() };
}

/**
 * The Prisma models behind a type: a Pothos prismaObject's own; a connection's or an edge's, its node's; a
 * union's, its members'.
 */
function modelsOf(type: GraphQLNamedType): string[] {
  if (isUnionType(type)) return type.getTypes().flatMap(modelsOf);
  if (!isObjectType(type)) return [];
  const model = type.extensions?.pothosPrismaModel;
  if (typeof model === 'string') return [model];
  const { edges, node } = type.getFields();
  const inner = node ?? edges;
  return inner ? modelsOf(getNamedType(inner.type)) : [];
}

const isRootType = (type: GraphQLNamedType, schema: GraphQLSchema) =>
  type === schema.getQueryType() ||
  type === schema.getMutationType() ||
  type === schema.getSubscriptionType();
