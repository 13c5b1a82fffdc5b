import { type GraphQLSchema, getOperationAST, validate } from 'graphql';
import { pathParametersOf, type Route } from './route.ts';

/**
 * Fails start-up when a route's operation does not fit the schema, or when its variables are not exactly its
 * path parameters, query parameters and (with a body) `$input`: a parameter could otherwise be dropped silently.
 */
export function checkRoute(schema: GraphQLSchema, route: Route): void {
  const problems = validate(schema, route.document).map((error) => error.message);
  const declared = (getOperationAST(route.document)?.variableDefinitions ?? []).map(
    (v) => v.variable.name.value,
  );
  const expected = [
    ...pathParametersOf(route.path),
    ...(route.query ?? []).map((p) => p.name),
    ...(route.body ? ['input'] : []),
  ];
  if (declared.sort().join() !== expected.sort().join()) {
    problems.push(`its variables are ${declared.join(', ')}; its parameters are ${expected.join(', ')}`);
  }
  if (problems.length > 0)
    throw new Error(`REST route ${route.method} ${route.path}: ${problems.join('; ')}`);
}
