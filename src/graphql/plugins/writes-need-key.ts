import type { Plugin } from 'graphql-yoga';
import { graphqlRefusal } from '../../contract/graphql-error.ts';
import { isMutation } from '../../contract/operations.ts';
import type { Context } from '../context.ts';

/** Reads are open to anonymous callers; a mutation needs an API key, checked before any resolver runs. */
export function useWritesNeedKey(): Plugin<Context> {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      if (isMutation(args.document, args.operationName) && args.contextValue.caller.kind !== 'key') {
        setResultAndStopExecution({
          errors: [graphqlRefusal('writesNeedKey')],
        });
      }
    },
  };
}
