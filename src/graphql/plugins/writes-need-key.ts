import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { graphqlRefusal } from '../../contract/graphql-error.ts';
import type { Context } from '../context.ts';

/** Reads are open to anonymous callers; a mutation needs an API key, checked before any resolver runs. */
export function useWritesNeedKey(): Plugin<Context> {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const operation = getOperationAST(args.document, args.operationName);
      if (operation?.operation === 'mutation' && args.contextValue.caller.kind !== 'key') {
        setResultAndStopExecution({
          errors: [graphqlRefusal('writesNeedKey')],
        });
      }
    },
  };
}
