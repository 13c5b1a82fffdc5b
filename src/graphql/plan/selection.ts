import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isLeafType,
  isNonNullType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
} from 'graphql';
import { collectFields, collectSubfields } from 'graphql/execution/collectFields.js';
import { type Derived, factsOf, type ListPlan } from '../field-facts/facts.ts';
import { type Column, columnOf, type Join, joinOf, Unplannable } from './model.ts';

/** One key of a JSON object the statement builds, in the order the executor would write it. */
export interface Member {
  key: string;
  value: Value;
}

export type Value =
  | { kind: 'text'; text: string }
  | { kind: 'column'; column: Column; nullable: boolean }
  | { kind: 'derived'; model: string; derived: Derived }
  | { kind: 'object'; join: Join; nullable: boolean; members: Member[] }
  | { kind: 'connection'; connection: ConnectionPlan }
  | { kind: 'edges'; members: Member[] }
  | { kind: 'cursor' }
  | { kind: 'node'; members: Member[] }
  | { kind: 'pageInfo'; members: Member[] }
  | { kind: 'hasNextPage' | 'hasPreviousPage' | 'startCursor' | 'endCursor' };

/** A connection the statement pages: a root list field, or a nested one (`Category.pets`) with its join. */
export interface ConnectionPlan {
  /** Its place in the request's arguments (plan/arguments.ts). */
  id: number;
  model: string;
  cursor: Column;
  field: GraphQLField<unknown, unknown>;
  node: FieldNode;
  listPlan: ListPlan;
  join?: Join;
  members: Member[];
}

/** What one operation (with its @skip/@include values) answers, planned: its root members. */
export interface SelectionPlan {
  members: Member[];
  connections: ConnectionPlan[];
}

/** Directives the executor itself applies; any other (@defer, @stream, unknown ones) keeps the resolvers' path. */
const KNOWN_DIRECTIVES = new Set(['skip', 'include']);

/** The variables a document's @skip/@include read; null when it holds a directive the planner does not know. */
export function directiveVariablesOf(document: DocumentNode): string[] | null {
  const names = new Set<string>();
  let unknown = false;
  const walk = (node: unknown): void => {
    if (unknown || !node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    const n = node as { kind?: string; name?: { value: string }; arguments?: unknown[] };
    if (n.kind === Kind.DIRECTIVE) {
      if (!KNOWN_DIRECTIVES.has(n.name?.value ?? '')) unknown = true;
      for (const argument of (n.arguments ?? []) as { value: { kind: string; name?: { value: string } } }[]) {
        if (argument.value.kind === Kind.VARIABLE && argument.value.name)
          names.add(argument.value.name.value);
      }
      return;
    }
    for (const [key, value] of Object.entries(n)) if (key !== 'loc') walk(value);
  };
  walk(document.definitions);
  return unknown ? null : [...names].sort();
}

/**
 * Plans a query operation whose every root field is a list the planner covers, with its selections as the
 * executor collects them (fragments, aliases, merged keys, @skip/@include for these variables). Throws
 * Unplannable for anything else.
 */
export function planSelection(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): SelectionPlan {
  if (operation.operation !== 'query') throw new Unplannable('not a query');
  const root = schema.getQueryType();
  if (!root) throw new Unplannable('no query type');
  const fragments: Record<string, FragmentDefinitionNode> = Object.create(null);
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  const connections: ConnectionPlan[] = [];
  const sub = (type: GraphQLObjectType, nodes: readonly FieldNode[]) =>
    collectSubfields(schema, fragments, variables, type, nodes);

  function members(
    type: GraphQLObjectType,
    grouped: Map<string, readonly FieldNode[]>,
    member: (field: GraphQLField<unknown, unknown>, nodes: readonly FieldNode[]) => Value,
  ): Member[] {
    return [...grouped].map(([key, nodes]) => {
      const [node] = nodes;
      if (!node) throw new Unplannable('empty selection');
      if (node.name.value === '__typename') return { key, value: { kind: 'text', text: type.name } };
      const field = type.getFields()[node.name.value];
      if (!field) throw new Unplannable(`unknown field ${node.name.value}`);
      return { key, value: member(field, nodes) };
    });
  }

  function connection(
    field: GraphQLField<unknown, unknown>,
    nodes: readonly FieldNode[],
    model: string,
    join?: Join,
  ): Value {
    const facts = factsOf(field);
    const listPlan = facts.listPlan;
    const type = getNamedType(field.type);
    if (!listPlan || !isObjectType(type) || facts.deprecation)
      throw new Unplannable(`${field.name} is no list`);
    const plan: ConnectionPlan = {
      id: connections.length,
      model,
      cursor: columnOf(model, listPlan.cursor),
      field,
      node: nodes[0] as FieldNode,
      listPlan,
      join,
      members: [],
    };
    if (plan.cursor.kind !== 'int64') throw new Unplannable('cursor is not an int64 column');
    connections.push(plan);
    plan.members = members(type, sub(type, nodes), (inner, innerNodes) => {
      const innerType = getNamedType(inner.type);
      if (!isObjectType(innerType)) throw new Unplannable(`${inner.name} of a connection`);
      if (inner.name === 'edges') {
        return {
          kind: 'edges',
          members: members(innerType, sub(innerType, innerNodes), (edgeField, edgeNodes) => {
            if (edgeField.name === 'cursor') return { kind: 'cursor' };
            const nodeType = getNamedType(edgeField.type);
            if (edgeField.name !== 'node' || !isObjectType(nodeType)) throw new Unplannable(edgeField.name);
            return { kind: 'node', members: row(nodeType, model, edgeNodes) };
          }),
        };
      }
      if (inner.name === 'pageInfo') {
        return {
          kind: 'pageInfo',
          members: members(innerType, sub(innerType, innerNodes), (infoField) => {
            const name = infoField.name;
            if (
              name === 'hasNextPage' ||
              name === 'hasPreviousPage' ||
              name === 'startCursor' ||
              name === 'endCursor'
            ) {
              return { kind: name };
            }
            throw new Unplannable(`pageInfo.${name}`);
          }),
        };
      }
      throw new Unplannable(`${type.name}.${inner.name}`);
    });
    return { kind: 'connection', connection: plan };
  }

  function row(type: GraphQLObjectType, model: string, nodes: readonly FieldNode[]): Member[] {
    if (type.extensions?.pothosPrismaModel !== model) throw new Unplannable(`${type.name} is not ${model}`);
    return members(type, sub(type, nodes), (field, fieldNodes) => {
      const facts = factsOf(field);
      const nullable = !isNonNullType(field.type);
      if (facts.callerDependent || facts.deprecation) throw new Unplannable(field.name);
      if (facts.column && field.args.length === 0 && isLeafType(getNamedType(field.type))) {
        return { kind: 'column', column: columnOf(model, facts.column), nullable };
      }
      if (facts.derived && field.args.length === 0) return { kind: 'derived', model, derived: facts.derived };
      if (facts.relation) {
        const join = joinOf(model, facts.relation);
        if (join.toMany) return connection(field, fieldNodes, join.model, join);
        const target = getNamedType(field.type);
        if (!isObjectType(target) || field.args.length > 0) throw new Unplannable(field.name);
        return { kind: 'object', join, nullable, members: row(target, join.model, fieldNodes) };
      }
      throw new Unplannable(`${type.name}.${field.name} is not planned`);
    });
  }

  const rootMembers = members(
    root,
    collectFields(schema, fragments, variables, root, operation.selectionSet),
    (field, nodes) => {
      const type = getNamedType(field.type);
      const nodeType = isObjectType(type) ? getNamedType(type.getFields().edges?.type) : undefined;
      const model = isObjectType(nodeType)
        ? getNamedType(nodeType.getFields().node?.type)?.extensions?.pothosPrismaModel
        : undefined;
      if (typeof model !== 'string' || !factsOf(field).listPlan?.where) throw new Unplannable(field.name);
      return connection(field, nodes, model);
    },
  );
  if (connections.length === 0) throw new Unplannable('no list');
  return { members: rootMembers, connections };
}
