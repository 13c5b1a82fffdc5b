import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { graphqlErrorResponse } from '../../contract/error-response.ts';
import { ERROR_STATUS, exampleOf } from '../../contract/errors.ts';
import { markClientError } from '../errors.ts';

const NO_TYPE = exampleOf('acceptsNoAnswer');
// A client that accepts JSON was refused because the answer comes in parts.
const IN_PARTS = exampleOf('acceptsNoParts');

/**
 * Documents that do not parse or validate never reach the error mask: Yoga answers them itself with codes of
 * its own (GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED). This gives them the contract's code and status.
 * A request whose Accept names no type Yoga can answer with gets Yoga's bare 406; this gives it the Error object
 * (as JSON: HTTP lets a 406 say why in any type), keeping the headers set before (the rate limit's).
 */
export function useClientErrorCodes(): Plugin {
  return {
    onResponse({ request, response, setResponse }) {
      if (response.status !== ERROR_STATUS.NOT_ACCEPTABLE || response.body !== null) return;
      const acceptsJson = /application\/(graphql-response\+)?json/.test(request.headers.get('accept') ?? '');
      setResponse(
        graphqlErrorResponse(acceptsJson ? IN_PARTS : NO_TYPE, Object.fromEntries(response.headers)),
      );
    },
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
