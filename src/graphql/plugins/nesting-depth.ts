import type { Plugin } from 'graphql-yoga';
import { graphqlRefusal } from '../../contract/graphql-error.ts';
import { MAX_VARIABLE_DEPTH } from '../../contract/limits.ts';

export { MAX_VARIABLE_DEPTH } from '../../contract/limits.ts';

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

/** Where the string or comment starting at `start` ends (the index after it), or -1 when it never does. */
function endOfStringOrComment(source: string, start: number): number {
  if (source[start] === '#') {
    const lineEnd = source.slice(start).search(/[\n\r]/);
    return lineEnd < 0 ? source.length : start + lineEnd;
  }
  if (source.startsWith('"""', start)) {
    // A block string ends at the first """ that is not escaped as \""".
    for (let at = source.indexOf('"""', start + 3); at >= 0; at = source.indexOf('"""', at + 1)) {
      if (source[at - 1] !== '\\') return at + 3;
    }
    return -1;
  }
  for (let at = start + 1; at < source.length; at++) {
    if (source[at] === '\\') at++;
    else if (source[at] === '"') return at + 1;
    else if (source[at] === '\n' || source[at] === '\r') return -1;
  }
  return -1;
}

/** Whether a GraphQL document nests its brackets ({, [, () deeper than `max`, outside strings and comments. */
function documentNestsDeeperThan(source: string, max: number): boolean {
  let depth = 0;
  for (let at = 0; at < source.length; at++) {
    const char = source[at];
    if (char === '"' || char === '#') {
      const end = endOfStringOrComment(source, at);
      if (end < 0) return false; // unterminated: the parser refuses it without going deeper
      at = end - 1;
    } else if (char === '{' || char === '[' || char === '(') {
      if (++depth > max) return true;
    } else if (char === '}' || char === ']' || char === ')') {
      depth = Math.max(0, depth - 1);
    }
  }
  return false;
}

/**
 * Refuses a request nested too deep for the code that walks it recursively, as soon as it is parsed from the
 * body, before anything walks it: variables or extensions deeper than MAX_VARIABLE_DEPTH (400
 * VALIDATION_FAILED; the response cache's key and graphql-js's coercion recurse over them), and a document whose
 * brackets nest deeper than `maxDocumentNesting` (400 QUERY_TOO_COMPLEX; graphql-js's parser recurses, and a list
 * literal a few thousand deep overflows its stack within the token limit). JSON.parse itself reads any depth.
 */
export function useNestingDepth({ maxDocumentNesting }: { maxDocumentNesting: number }): Plugin {
  const tooDeep = (field: 'variables' | 'extensions') => graphqlRefusal('nestedTooDeep', { field });
  return {
    onRequestParse: () => ({
      onRequestParseDone({ requestParserResult }) {
        const operations = Array.isArray(requestParserResult) ? requestParserResult : [requestParserResult];
        for (const params of operations) {
          if (nestsDeeperThan(params?.variables, MAX_VARIABLE_DEPTH)) throw tooDeep('variables');
          if (nestsDeeperThan(params?.extensions, MAX_VARIABLE_DEPTH)) throw tooDeep('extensions');
          if (
            typeof params?.query === 'string' &&
            documentNestsDeeperThan(params.query, maxDocumentNesting)
          ) {
            throw graphqlRefusal('documentTooDeep', { maxNesting: maxDocumentNesting });
          }
        }
      },
    }),
  };
}
