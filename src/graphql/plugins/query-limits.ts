import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import type { GraphQLError, ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { apiError, ERROR_STATUS } from '../../contract/errors.ts';
import { toGraphQLError } from '../../contract/graphql-error.ts';

export interface QueryLimits {
  maxDepth: number;
  maxCost: number;
  maxAliases: number;
  maxDirectives: number;
  maxTokens: number;
}

/**
 * graphql-armor's limits on the size and shape of a GraphQL document, checked before anything executes.
 * A document over one is refused with QUERY_TOO_COMPLEX (HTTP 400) naming the limit and what was found.
 */
export function useQueryLimits(limits: QueryLimits): Plugin {
  const refuse = (validation: ValidationContext | null, error: GraphQLError) => {
    const limit = error.message.replace(/^Syntax Error: /, '');
    const refusal = toGraphQLError(apiError('queryTooComplex', { limit }));
    // The token limit is checked while parsing, where there is no validation context to report to.
    if (!validation) throw refusal;
    validation.reportError(refusal);
  };
  const onRejection = { onReject: [refuse], propagateOnRejection: false };
  const armor = EnvelopArmorPlugin({
    maxDepth: { n: limits.maxDepth, ...onRejection },
    costLimit: { maxCost: limits.maxCost, ...onRejection },
    maxAliases: { n: limits.maxAliases, ...onRejection },
    maxDirectives: { n: limits.maxDirectives, ...onRejection },
    maxTokens: { n: limits.maxTokens, ...onRejection },
    // Suggestions are hidden for every kind of error, not only fields (hide-suggestions.ts).
    blockFieldSuggestion: { enabled: false },
  });

  return {
    onPluginInit({ addPlugin }) {
      addPlugin(armor as Plugin); // an envelop plugin, which Yoga runs as it is
    },
    // Yoga answers parse and validation errors with 200 to clients that accept application/json (as GraphQL
    // over HTTP asks); a refused document is 400 whatever the client accepts, like the other refusals.
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || !('errors' in result)) return;
      if (!result.errors?.some((error) => error.extensions?.code === 'QUERY_TOO_COMPLEX')) return;
      setResult({
        ...result,
        extensions: { ...result.extensions, http: { status: ERROR_STATUS.QUERY_TOO_COMPLEX } },
      });
    },
  };
}
