import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { startStepSpan, withSpan } from '../../observability/tracing.ts';

/**
 * Spans for parse, validate and execute (docs/tracing.md), children of the request's span; execution runs
 * inside its span, so that the store's Prisma queries are its children. Installed only while tracing is on.
 */
export function useTracing(): Plugin {
  return {
    onParse() {
      const step = startStepSpan('graphql.parse');
      return ({ result }) => step?.end(result instanceof Error ? result : undefined);
    },
    onValidate() {
      const step = startStepSpan('graphql.validate');
      return ({ valid }) => step?.end(valid ? undefined : 'invalid');
    },
    onExecute({ args, executeFn, setExecuteFn }) {
      const operation = getOperationAST(args.document, args.operationName);
      const step = startStepSpan('graphql.execute', {
        'graphql.operation.name': operation?.name?.value ?? 'anonymous',
        'graphql.operation.type': operation?.operation ?? 'unknown',
      });
      if (!step) return;
      setExecuteFn((executeArgs) => withSpan(step.span, () => executeFn(executeArgs)));
      return {
        onExecuteDone: ({ result }) => {
          const errors = 'errors' in result && result.errors?.length;
          step.end(errors ? 'errors' : undefined);
        },
      };
    },
  };
}
