import type { Plugin } from 'graphql-yoga';
import { graphqlError } from '../../contract/graphql-error.ts';

/**
 * How deep a request's variables (and extensions) may nest: a list in a list counts two. The schema's deepest
 * input is three levels (an input object holding a list); 32 leaves room for any schema to come.
 */
export const MAX_VARIABLE_DEPTH = 32;

/** Whether `value` nests deeper than `max`, found without recursion (its depth is what is in question). */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * Refuses a request whose variables or extensions nest deeper than MAX_VARIABLE_DEPTH (400 VALIDATION_FAILED)
 * as soon as it is parsed, before anything walks them recursively (the response cache's key, graphql-js's
 * coercion, logging): JSON.parse reads any depth, recursion over it overflows the stack.
 */
export function useVariableDepth(): Plugin {
  const refuse = (name: string) =>
    graphqlError('VALIDATION_FAILED', `${name}: nested deeper than ${MAX_VARIABLE_DEPTH} levels`, {
      httpStatus: true,
    });
  return {
    onRequestParse: () => ({
      onRequestParseDone({ requestParserResult }) {
        const operations = Array.isArray(requestParserResult) ? requestParserResult : [requestParserResult];
        for (const params of operations) {
          if (nestsDeeperThan(params?.variables, MAX_VARIABLE_DEPTH)) throw refuse('variables');
          if (nestsDeeperThan(params?.extensions, MAX_VARIABLE_DEPTH)) throw refuse('extensions');
        }
      },
    }),
  };
}
