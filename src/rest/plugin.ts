import { GraphQLError, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { isGraphQLPath } from '../contract/endpoints.ts';
import { ApiError } from '../contract/errors.ts';
import type { PetsByIdDeprecation } from '../contract/pets-by-id.ts';
import { hideSuggestion } from '../graphql/plugins/hide-suggestions.ts';
import { checkRoute } from './check-route.ts';
import { createMatcher } from './match.ts';
import { createVariableReader, parsePathIds } from './request.ts';
import { respond, respondWithError } from './respond.ts';
import { ROUTES } from './routes.ts';
import { operationRunner, type RunOperation } from './run-operation.ts';

export interface RestOptions {
  /** Largest request body accepted, in bytes. */
  maxBodyBytes: number;
  petsById: PetsByIdDeprecation;
  /** In production a refused body suggests no field or value name, as GraphQL's errors do not. */
  production: boolean;
}

/**
 * The REST adapter, as Yoga's last plugin: a request outside the GraphQL endpoint is matched against the route
 * table, its parameters and body become the variables of the route's operation, the operation runs through
 * Yoga (runOperation), and its result becomes the REST response. So REST and GraphQL share the store's logic,
 * the caller, the limits and the plugins in between.
 */
export function useRest({ maxBodyBytes, petsById, production }: RestOptions): Plugin {
  const match = createMatcher(ROUTES);
  let schema: GraphQLSchema | undefined;
  const readAllVariables = createVariableReader(maxBodyBytes, () => {
    if (!schema) throw new Error('The REST adapter has no schema yet');
    return schema;
  });
  const readVariables: typeof readAllVariables = production
    ? (...args) =>
        readAllVariables(...args).catch((error: unknown) => {
          if (error instanceof Error) hideSuggestion(error);
          throw error;
        })
    : readAllVariables;
  let runOperation: RunOperation;
  let logError: (error: unknown) => void;

  async function answer(request: Request, url: URL, serverContext: Record<string, unknown>) {
    const found = match(request.method, url.pathname);
    if ('refusal' in found) return respondWithError(found.refusal, found.headers);
    const { route, pathValues } = found;
    let headers: Record<string, string> = {};
    try {
      const pathIds = parsePathIds(pathValues);
      // After the sunset, pet(id:), which the route runs, answers ENDPOINT_SUNSET itself.
      if (route.deprecated === 'petsById') headers = petsById.headers(pathIds.petId as bigint);
      const variables = { ...(await readVariables(route, url.searchParams, request)), ...pathIds };
      const result = await runOperation(
        { document: route.document, source: route.source, variables },
        request,
        serverContext,
      );
      const [error] = result.errors ?? [];
      if (error) return respondWithError(error, headers);
      return respond(route, result.data?.[route.field], url, headers);
    } catch (error) {
      if (!(error instanceof ApiError || error instanceof GraphQLError)) logError(error);
      return respondWithError(error, headers);
    }
  }

  return {
    onYogaInit({ yoga }) {
      runOperation = operationRunner(yoga);
      logError = (error) => yoga.logger.error(error);
    },
    onSchemaChange({ schema: changed }) {
      for (const route of ROUTES) checkRoute(changed, route);
      schema = changed;
    },
    onRequest({ request, url, serverContext, endResponse }) {
      if (isGraphQLPath(url.pathname)) return;
      return answer(request, url, serverContext as Record<string, unknown>).then(endResponse);
    },
  };
}
