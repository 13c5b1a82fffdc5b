import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { inSpan } from '../../observability/tracing.ts';
import type { Context } from '../context.ts';
import { pageArgumentsOf } from './arguments.ts';
import { PlanCache } from './cache.ts';
import type { Dialect } from './dialects.ts';
import { plannedResult } from './result.ts';
import { runStatement } from './run.ts';

/**
 * The list path by plan (docs/architecture.md): a query whose every root field is a list the planner covers is
 * answered by one SQL statement that returns the `data` object as JSON, instead of the resolvers. Anything it
 * does not cover, arguments the resolvers would refuse, and a statement that fails, go on to the resolvers,
 * which answer as they always do. Placed after every stage that may refuse or answer an operation (scopes,
 * response cache), so that those treat a planned operation as any other.
 */
export function useListPlans(dialect: Dialect): Plugin<Context> {
  let plans: PlanCache | undefined;
  return {
    onSchemaChange({ schema }) {
      plans = new PlanCache(schema);
    },
    onExecute({ args, setResultAndStopExecution }) {
      if (!plans) return;
      const operation = getOperationAST(args.document, args.operationName);
      if (!operation) return;
      const inputs = (args.variableValues ?? {}) as Record<string, unknown>;
      const planned = plans.planFor(args.document, operation, inputs);
      if (!planned) return;
      const { prisma, caller } = args.contextValue;
      const pages = pageArgumentsOf(planned.plan.selection.connections, planned.variables, caller);
      if (!pages) return;
      const statement = planned.plan.statementFor(pages, dialect);
      return Promise.resolve(inSpan('list plan', () => runStatement(prisma, statement, pages))).then(
        (json) => {
          if (json !== undefined) setResultAndStopExecution(plannedResult(json));
        },
      );
    },
  };
}
