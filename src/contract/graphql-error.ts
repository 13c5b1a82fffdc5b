import { GraphQLError } from 'graphql';
import { ERROR_STATUS, type ErrorCode } from './errors.ts';

/** A GraphQL error carrying the Error object's code and status; `httpStatus` sets the response status too. */
export function graphqlError(
  code: ErrorCode,
  message: string,
  options: { httpStatus?: boolean; extensions?: Record<string, unknown> } = {},
) {
  const status = ERROR_STATUS[code];
  return new GraphQLError(message, {
    extensions: { ...options.extensions, code, status, ...(options.httpStatus && { http: { status } }) },
  });
}
