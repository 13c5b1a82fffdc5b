import { type GraphQLSchema, getOperationAST, getVariableValues } from 'graphql';
import { canonicalJson } from '../contract/json.ts';
import { createMatcher } from './match.ts';
import { createVariableReader, parsePathIds } from './request.ts';
import { ROUTES } from './routes.ts';

/** A REST request's meaning as canonical text, or undefined for one that matches no route or is refused. */
export type RestMeaning = (
  request: Request,
  url: URL,
  body: Uint8Array<ArrayBuffer>,
) => Promise<string | undefined>;

/**
 * What a REST write will run, for comparing an idempotent repeat by meaning: its route, and the variables its
 * path, query string and body become, coerced by the route's operation's variable types (`{"petId": 1}` and
 * `{"petId": "1"}`, `/pets/1` and `/pets/01`, keys in any order, are the same request). Read as the REST
 * adapter reads them, so a request it would refuse has no meaning here either.
 */
export function createRestMeaning(schema: GraphQLSchema, maxBodyBytes: number): RestMeaning {
  const match = createMatcher(ROUTES);
  const readVariables = createVariableReader(maxBodyBytes, () => schema);
  return async (request, url, body) => {
    const found = match(request.method, url.pathname);
    if ('refusal' in found) return undefined;
    const { route, pathValues } = found;
    try {
      const { method, headers } = request;
      const copy = new Request(url, { method, headers, body: body.byteLength ? body : null });
      const variables = {
        ...(await readVariables(route, url.searchParams, copy)),
        ...parsePathIds(pathValues),
      };
      const definitions = getOperationAST(route.document)?.variableDefinitions ?? [];
      const { coerced } = getVariableValues(schema, definitions, variables);
      return coerced && canonicalJson({ route: `${route.method} ${route.path}`, variables: coerced });
    } catch {
      return undefined;
    }
  };
}
