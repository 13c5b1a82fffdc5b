import { print } from 'graphql';
import { type ApiError, apiError } from '../contract/errors.ts';
import { pathParametersOf, type Route, rootFieldOf } from './route.ts';

/** A route ready to run: its root field and its document's text, worked out once at start. */
export interface CompiledRoute extends Route {
  field: string;
  source: string;
}

interface CompiledPath {
  template: string;
  pattern: RegExp;
  parameters: string[];
  methods: Map<string, CompiledRoute>;
  allow: string;
}

/** The route a request names, with the text of its path parameters; or its refusal (404, 405 with Allow). */
export type Match =
  | { route: CompiledRoute; pathValues: Record<string, string> }
  | { refusal: ApiError; headers: Record<string, string> };

/**
 * Matches requests against the route table: path first (404 when none), then method (405). HEAD runs the
 * path's GET route (RFC 9110: the same answer without its body, which node:http leaves out for a HEAD).
 */
export function createMatcher(routes: Route[]) {
  const paths = compilePaths(routes);
  return function match(method: string, pathname: string): Match {
    for (const path of paths) {
      const found = path.pattern.exec(pathname);
      if (!found) continue;
      const route = path.methods.get(method === 'HEAD' ? 'GET' : method);
      if (!route) {
        const refusal = apiError('methodNotAllowed', { method, path: path.template, allow: path.allow });
        return { refusal, headers: { Allow: path.allow } };
      }
      const pathValues = Object.fromEntries(path.parameters.map((name, i) => [name, found[i + 1] ?? '']));
      return { route, pathValues };
    }
    return { refusal: apiError('noSuchPath', { path: pathname }), headers: {} };
  };
}

/**
 * The operationId of the route a request names (undefined when its path or method matches none), to label its
 * log line and metrics before any stage answers it: a refusal by the rate limit is still `listPets`'s.
 */
export function createOperationFinder(routes: Route[]) {
  const match = createMatcher(routes);
  return (method: string, pathname: string): string | undefined => {
    const found = match(method, pathname);
    return 'route' in found ? found.route.operationId : undefined;
  };
}

function compilePaths(routes: Route[]): CompiledPath[] {
  const paths = new Map<string, CompiledPath>();
  for (const route of routes) {
    const path = paths.get(route.path) ?? {
      template: route.path,
      pattern: new RegExp(`^${route.path.replace(/\{\w+\}/g, '([^/]+)')}$`),
      parameters: pathParametersOf(route.path),
      methods: new Map(),
      allow: '',
    };
    path.methods.set(route.method, { ...route, field: rootFieldOf(route), source: print(route.document) });
    const methods = [...path.methods.keys()];
    path.allow = methods.flatMap((name) => (name === 'GET' ? ['GET', 'HEAD'] : [name])).join(', ');
    paths.set(route.path, path);
  }
  return [...paths.values()];
}
