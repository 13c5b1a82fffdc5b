import { isPromise } from '@whatwg-node/promise-helpers';
import { type ExecutionArgs, type GraphQLObjectType, type GraphQLSchema, getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { toGraphQLError } from '../../contract/graphql-error.ts';
import type { Context } from '../context.ts';
import { factsOf } from '../field-facts/facts.ts';
import { rootFieldsOf } from './root-fields.ts';

/**
 * Per-field limits (a root field's `fieldLimit` option; the limit is configured by field name), checked before an operation runs: its calls of each limited root field (every alias,
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
        const error = toGraphQLError(refusal, { httpStatus: true });
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
      .filter((field) => factsOf(field).fieldLimit)
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
  const names = operation && limited.get(args.schema.getRootType(operation.operation) as GraphQLObjectType);
  if (!names) return undefined;
  const calls = new Map<string, number>();
  for (const { name } of rootFieldsOf(args)?.fields ?? []) {
    if (names.has(name)) calls.set(name, (calls.get(name) ?? 0) + 1);
  }
  return calls.size > 0 ? calls : undefined;
}
