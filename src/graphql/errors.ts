import { GraphQLError } from 'graphql';
import { ApiError, ERROR_STATUS, type ErrorCode } from '../errors.ts';

const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && code in ERROR_STATUS;

/** A GraphQL error carrying the Error object's code and status; `http` sets the response status too. */
export function graphqlError(code: ErrorCode, message: string, options: { httpStatus?: boolean } = {}) {
  const status = ERROR_STATUS[code];
  return new GraphQLError(message, {
    extensions: { code, status, ...(options.httpStatus && { http: { status } }) },
  });
}

/**
 * Yoga's error mask, applied to every error it returns. Store errors keep their code and message; errors the
 * client caused in the document or variables become VALIDATION_FAILED; anything else is masked as INTERNAL
 * (Yoga logs the original), so that no stack trace or SQL reaches the client.
 */
export function maskError(error: unknown, internalMessage: string): Error {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (original instanceof ApiError) return withCode(error, original.code, original.message);
  if (original instanceof Error && original.name === 'PothosValidationError') {
    return withCode(error, 'VALIDATION_FAILED', original.message);
  }
  if (error instanceof GraphQLError && !original) {
    const { code } = error.extensions;
    return isErrorCode(code) ? error : withCode(error, 'VALIDATION_FAILED', error.message);
  }
  return withCode(error, 'INTERNAL', internalMessage);
}

function withCode(error: unknown, code: ErrorCode, message: string): GraphQLError {
  const located = error instanceof GraphQLError ? error : undefined;
  return new GraphQLError(message, {
    nodes: located?.nodes,
    source: located?.source,
    positions: located?.positions,
    path: located?.path,
    extensions: { ...located?.extensions, code, status: ERROR_STATUS[code] },
  });
}
