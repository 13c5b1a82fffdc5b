import { GraphQLError } from 'graphql';
import { ApiError, apiError, ERROR_STATUS, type ErrorCode, isErrorCode } from '../contract/errors.ts';
import { toGraphQLError } from '../contract/graphql-error.ts';
import { isDatabaseUnavailable } from '../store/prisma-errors.ts';

/**
 * Yoga's error mask, applied to every error it returns. Store errors keep their code and message; errors the
 * client caused in the document, variables or arguments get the code of their HTTP status (VALIDATION_FAILED
 * when they have none); an unreachable database is UNAVAILABLE; anything else is masked as INTERNAL (Yoga logs
 * the original), so that no stack trace or SQL reaches the client.
 */
export function maskError(error: unknown): Error {
  if (error instanceof GraphQLError) {
    // ApiErrors thrown by resolvers arrive wrapped, with their code already copied into `extensions`.
    if (isErrorCode(error.extensions.code)) return error;
    // No original error: graphql-js rejected the document or variables. A GraphQLError as the original: a scalar
    // or Pothos refused an argument value.
    const { originalError } = error;
    if (!originalError || originalError instanceof GraphQLError) return markClientError(error);
  }
  const at = error instanceof GraphQLError ? error : undefined;
  if (error instanceof ApiError) return toGraphQLError(error, { at });
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (isDatabaseUnavailable(original)) return toGraphQLError(apiError('databaseUnavailable'), { at });
  return toGraphQLError(apiError('internal'), { at });
}

/**
 * Marked in place rather than copied: Yoga logs any error whose mask returns a new object as a server fault,
 * and a client's malformed query is not one.
 */
export function markClientError(error: GraphQLError): GraphQLError {
  if (isErrorCode(error.extensions.code)) return error;
  // Yoga puts the JSON parser's own error here (V8's wording, quoting the body back): no part of the contract.
  // Yoga answers such a request 400 only while it is there; it stays 400 for every client without it.
  if ('originalError' in error.extensions) {
    delete error.extensions.originalError;
    const http = error.extensions.http as { spec?: boolean } | undefined;
    if (http) http.spec = false;
  }
  const httpStatus = (error.extensions.http as { status?: number } | undefined)?.status;
  const code = CODE_FOR_CLIENT_STATUS.get(httpStatus ?? 400) ?? 'VALIDATION_FAILED';
  Object.assign(error.extensions, { code, status: ERROR_STATUS[code] });
  return error;
}

const CODE_FOR_CLIENT_STATUS = new Map<number, ErrorCode>([
  [400, 'VALIDATION_FAILED'],
  [404, 'NOT_FOUND'],
  [405, 'METHOD_NOT_ALLOWED'],
  [413, 'PAYLOAD_TOO_LARGE'],
  [415, 'UNSUPPORTED_MEDIA_TYPE'],
]);
