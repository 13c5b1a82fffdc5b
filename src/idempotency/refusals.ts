import type { Response } from '@whatwg-node/fetch';
import { errorResponse } from '../contract/error-response.ts';
import { ApiError, apiError } from '../contract/errors.ts';
import { toGraphQLError } from '../contract/graphql-error.ts';
import type { Logger } from '../observability/logger.ts';
import { isDatabaseUnavailable } from '../store/prisma-errors.ts';

/**
 * A keyed REST write refused before it runs (a bad key, a key in use or reused, an unreachable database): the
 * Error object. Anything else is INTERNAL, logged.
 */
export function refusalResponse(error: unknown, log: Pick<Logger, 'error'>): Response {
  if (error instanceof ApiError) return errorResponse(error);
  if (isDatabaseUnavailable(error)) return errorResponse(apiError('databaseUnavailable'));
  log.error({ err: error }, 'idempotency layer failed');
  return errorResponse(apiError('internal'));
}

/** The same for a GraphQL request: the GraphQL error Yoga answers with its status; anything else as it is. */
export function refusalGraphQLError(error: unknown): unknown {
  if (error instanceof ApiError) return toGraphQLError(error, { httpStatus: true });
  if (isDatabaseUnavailable(error))
    return toGraphQLError(apiError('databaseUnavailable'), { httpStatus: true });
  return error;
}
