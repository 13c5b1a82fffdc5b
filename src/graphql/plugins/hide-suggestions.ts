import type { Plugin } from 'graphql-yoga';

// Every hint graphql-js appends (didYouMean): ` Did you mean "a", "b", or "c"?`, ` Did you mean the enum value
// "x"?`, ` Did you mean to use an inline fragment on "T"?`. The quoted names are GraphQL names: no `?` inside.
const SUGGESTION = / ?Did you mean [^?]*\?/g;

/** The error without graphql-js's hint; REST's body check (rest/plugin.ts) uses it too. */
export function hideSuggestion(error: Error): void {
  error.message = error.message.replace(SUGGESTION, '');
}

function hide(errors: readonly Error[]): void {
  for (const error of errors) hideSuggestion(error);
}

/**
 * In production, no error suggests a name of the schema ("Did you mean …?"), so that it is learnt from
 * introspection (still allowed, for the explorer) rather than by guessing. graphql-js writes hints while
 * validating a document (fields, arguments, types, enum values, input fields) and while coercing its
 * variables, which happens in `execute`: for GraphQL and for REST, whose operations run through the same
 * execute (rest/run-operation.ts).
 */
export function useHideSuggestions(): Plugin {
  return {
    onValidate:
      () =>
      ({ valid, result }) => {
        if (!valid) hide(result);
      },
    onExecute: () => ({
      onExecuteDone({ result }) {
        if ('errors' in result && result.errors) hide(result.errors);
      },
    }),
  };
}
