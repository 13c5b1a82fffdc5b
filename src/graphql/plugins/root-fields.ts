import {
  type ExecutionArgs,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  getOperationAST,
  getVariableValues,
  Kind,
} from 'graphql';
// graphql-js's own field collection, the one its executor runs: aliases, fragments and @skip/@include then
// count exactly as they execute.
import { collectFields } from 'graphql/execution/collectFields.js';

export interface RootFields {
  root: GraphQLObjectType;
  /** One entry per response key (fields merged under one key run once), in the order they run. */
  fields: GraphQLField<unknown, unknown>[];
  /** The first node of each entry of `fields`, where its arguments are written. */
  nodes: FieldNode[];
  /** The operation's variables, coerced. */
  variables: Record<string, unknown>;
}

/**
 * The root fields an operation is about to run, for the stages that decide on them before anything executes
 * (field limits, scopes). Undefined when graphql-js will refuse the operation itself: no such operation, or
 * variables that do not coerce.
 */
export function rootFieldsOf(args: ExecutionArgs): RootFields | undefined {
  const operation = getOperationAST(args.document, args.operationName);
  const root = operation && args.schema.getRootType(operation.operation);
  if (!operation || !root) return undefined;
  const inputs = (args.variableValues ?? {}) as Record<string, unknown>;
  const { coerced } = getVariableValues(args.schema, operation.variableDefinitions ?? [], inputs);
  if (!coerced) return undefined;
  const fragments: Record<string, FragmentDefinitionNode> = Object.create(null);
  for (const definition of args.document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  const definitions = root.getFields();
  const fields: GraphQLField<unknown, unknown>[] = [];
  const nodes: FieldNode[] = [];
  for (const [, [node]] of collectFields(args.schema, fragments, coerced, root, operation.selectionSet)) {
    const field = node && definitions[node.name.value];
    if (!field) continue;
    fields.push(field);
    nodes.push(node);
  }
  return { root, fields, nodes, variables: coerced };
}
