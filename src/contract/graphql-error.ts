import { GraphQLError } from 'graphql';
import { type ApiError, apiError, type ErrorName, type ValuesArgument } from './errors.ts';

/**
 * The one place an ApiError becomes a GraphQL error: its message, and its code and status in `extensions`.
 * `httpStatus` makes it the response's status too (a refusal of the whole request); `at` keeps the location
 * and path of the GraphQL error it replaces (a resolver's).
 */
export function toGraphQLError(
  error: ApiError,
  options: { httpStatus?: boolean; extensions?: Record<string, unknown>; at?: GraphQLError } = {},
): GraphQLError {
  const { code, status } = error;
  const { at } = options;
  return new GraphQLError(error.message, {
    nodes: at?.nodes,
    source: at?.source,
    positions: at?.positions,
    path: at?.path,
    extensions: {
      ...at?.extensions,
      ...options.extensions,
      code,
      status,
      ...(options.httpStatus && { http: { status } }),
    },
  });
}

/** The catalogue's error `name` as a GraphQL error that refuses the whole request, with its HTTP status. */
export function graphqlRefusal<Name extends ErrorName>(
  name: Name,
  ...values: ValuesArgument<Name>
): GraphQLError {
  return toGraphQLError(apiError(name, ...values), { httpStatus: true });
}
