import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { markClientError } from '../errors.ts';

/**
 * Documents that do not parse or validate never reach the error mask: Yoga answers them itself with codes of
 * its own (GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED). This gives them the contract's code and status.
 */
export function useClientErrorCodes(): Plugin {
  return {
    onParse:
      () =>
      ({ result }) => {
        if (result instanceof GraphQLError) markClientError(result);
      },
    onValidate:
      () =>
      ({ valid, result }) => {
        if (!valid) for (const error of result) markClientError(error);
      },
  };
}
