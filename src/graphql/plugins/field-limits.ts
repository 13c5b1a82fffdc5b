import { isPromise } from '@whatwg-node/promise-helpers';
import {
  type ExecutionArgs,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
  Kind,
  type OperationDefinitionNode,
} from 'graphql';
// graphql-js's own field collection, the one its executor runs: aliases, fragments and @skip/@include then
// count exactly as they execute.
import { collectFields } from 'graphql/execution/collectFields.js';
import type { Plugin } from 'graphql-yoga';
import { graphqlError } from '../../contract/graphql-error.ts';
import type { Context } from '../context.ts';

/** The extension that marks a root field as limited per caller (the limit is configured by field name). */
export const FIELD_LIMIT = 'fieldLimit';

/**
 * Per-field limits, checked before an operation runs: its calls of each limited root field (every alias,
 * fragment and batch entry) are taken from the caller's quota at once. An operation that does not fit is
 * refused whole with RATE_LIMITED (429), so that no client sees half of it written and retries the rest.
 */
export function useFieldLimits(): Plugin<Context> {
  let limited = new Map<GraphQLObjectType, ReadonlySet<string>>();
  return {
    onSchemaChange({ schema }) {
      limited = limitedRootFields(schema);
    },
    onExecute({ args, setResultAndStopExecution }) {
      if (limited.size === 0) return;
      const calls = limitedCalls(args, limited);
      if (!calls) return;
      const refuse = (refusal: Awaited<ReturnType<Context['quota']['limitFields']>>) => {
        if (!refusal) return;
        const error = graphqlError(refusal.code, refusal.message, { httpStatus: true });
        setResultAndStopExecution({ errors: [error] });
      };
      const refusal = args.contextValue.quota.limitFields(calls);
      return isPromise(refusal) ? refusal.then(refuse) : refuse(refusal);
    },
  };
}

function limitedRootFields(schema: GraphQLSchema): Map<GraphQLObjectType, ReadonlySet<string>> {
  const limited = new Map<GraphQLObjectType, ReadonlySet<string>>();
  for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    if (!root) continue;
    const names = Object.values(root.getFields())
      .filter((field) => field.extensions[FIELD_LIMIT])
      .map((field) => field.name);
    if (names.length > 0) limited.set(root, new Set(names));
  }
  return limited;
}

/** How many times the operation calls each limited root field; undefined when none. */
function limitedCalls(
  args: ExecutionArgs,
  limited: Map<GraphQLObjectType, ReadonlySet<string>>,
): Map<string, number> | undefined {
  const operation = getOperationAST(args.document, args.operationName);
  const root = operation && args.schema.getRootType(operation.operation);
  const names = root && limited.get(root);
  if (!operation || !root || !names) return undefined;
  const variables = coercedVariables(args, operation);
  // Variables that do not coerce fail the operation before anything runs.
  if (!variables) return undefined;
  const fragments: Record<string, FragmentDefinitionNode> = Object.create(null);
  for (const definition of args.document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  const calls = new Map<string, number>();
  // One entry per response key: fields merged under one key run once.
  for (const [, [field]] of collectFields(args.schema, fragments, variables, root, operation.selectionSet)) {
    const name = field?.name.value;
    if (name && names.has(name)) calls.set(name, (calls.get(name) ?? 0) + 1);
  }
  return calls.size > 0 ? calls : undefined;
}

function coercedVariables(args: ExecutionArgs, operation: OperationDefinitionNode) {
  const inputs = (args.variableValues ?? {}) as Record<string, unknown>;
  const result = getVariableValues(args.schema, operation.variableDefinitions ?? [], inputs);
  return result.coerced;
}
