import type { Plugin } from 'graphql-yoga';
import { stringifyJson } from '../../contract/json.ts';

/**
 * Lets Yoga write Int64 values beyond 2^53 as exact JSON numbers (see json.ts). A result that brings its own
 * `stringify` (a planned list's, graphql/plan/result.ts) writes them already.
 */
export function useInt64Json(): Plugin {
  return {
    onExecute: () => ({
      onExecuteDone: ({ result, setResult }) => {
        if (!(Symbol.asyncIterator in result) && !('stringify' in result))
          setResult(Object.assign({}, result, { stringify: stringifyJson }));
      },
    }),
  };
}
