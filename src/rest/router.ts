import type { IncomingMessage } from 'node:http';
import {
  type ExecutionResult,
  GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  print,
  validate,
} from 'graphql';
import type { FetchAPI, Plugin, YogaServerInstance } from 'graphql-yoga';
import { isGraphQLPath } from '../contract/endpoints.ts';
import { ApiError, ERROR_STATUS, type ErrorBody, isErrorCode } from '../contract/errors.ts';
import { stringifyJson } from '../contract/json.ts';
import type { Deprecation } from '../contract/pets-by-id.ts';
import { maskError } from '../graphql/errors.ts';
import { nameOperation } from '../observability/request-context.ts';
import { createBodyValidators, parseInt64, parseQuery, readJsonBody } from './request.ts';
import { pathParametersOf, ROUTES, type Route, rootFieldOf } from './routes.ts';

export interface RestOptions {
  /** Largest request body accepted, in bytes. */
  maxBodyBytes: number;
  /** When GET /pets/{petId} was deprecated and when it stops answering (410). */
  petsByIdDeprecation: Deprecation;
}

interface CompiledRoute extends Route {
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

type Yoga = YogaServerInstance<Record<string, unknown>, Record<string, unknown>>;
type Headers = Record<string, string>;
type Resource = Record<string, unknown>;

interface Connection {
  edges: { node: Resource }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const fill = (template: string, values: Record<string, unknown>) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));
const withoutNulls = (resource: Resource) =>
  Object.fromEntries(Object.entries(resource).filter(([, value]) => value !== null));

/**
 * The REST adapter, as a Yoga plugin: every request outside the GraphQL endpoint is matched against the route
 * table and answered by running the route's pre-parsed operation through Yoga's own envelop pipeline (context,
 * execution and the plugins on them), so that REST and GraphQL share the store's logic, auth and limits.
 */
export function useRest(options: RestOptions): Plugin {
  const paths = compilePaths(ROUTES);
  const validateBody = createBodyValidators();
  const { deprecatedAt, sunsetAt } = options.petsByIdDeprecation;
  const deprecationHeaders = {
    Deprecation: `@${Math.floor(deprecatedAt.getTime() / 1000)}`,
    Sunset: sunsetAt.toUTCString(),
  };
  let yoga: Yoga;

  function match(pathname: string) {
    for (const path of paths) {
      const found = path.pattern.exec(pathname);
      if (found)
        return {
          path,
          values: Object.fromEntries(path.parameters.map((name, i) => [name, found[i + 1] ?? ''])),
        };
    }
    throw new ApiError('NOT_FOUND', `Nothing at ${pathname}; the paths are listed in /openapi.json`);
  }

  /** Runs the operation as Yoga runs a GraphQL request's: its context factory, then its execute. */
  async function execute(
    route: CompiledRoute,
    variables: Resource,
    request: Request,
    serverContext: Resource,
  ) {
    const initialContext = Object.assign(serverContext, {
      request,
      params: { query: route.source, variables },
    });
    const enveloped = yoga.getEnveloped(initialContext);
    const contextValue = await enveloped.contextFactory(initialContext);
    const result = await enveloped.execute({
      schema: enveloped.schema,
      document: route.document,
      contextValue,
      variableValues: variables,
    });
    return result as ExecutionResult<Record<string, unknown>>;
  }

  async function handle(
    request: Request,
    url: URL,
    serverContext: Resource,
    reply: Reply,
  ): Promise<Response> {
    let headers: Headers = {};
    try {
      const { path, values } = match(url.pathname);
      const route = path.methods.get(request.method);
      if (!route) {
        headers = { Allow: path.allow };
        const problem = `${request.method} is not allowed on ${path.template}; it allows ${path.allow}`;
        throw new ApiError('METHOD_NOT_ALLOWED', problem);
      }
      nameOperation(serverContext.req as IncomingMessage | undefined, 'rest', route.operationId);
      // Parsed first, so that nothing from the raw path reaches a header.
      const pathIds = Object.fromEntries(
        Object.entries(values).map(([name, text]) => [name, parseInt64(name, text)]),
      );
      if (route.successor) {
        headers = {
          ...deprecationHeaders,
          Link: `<${fill(route.successor, pathIds)}>; rel="successor-version"`,
        };
        if (Date.now() >= sunsetAt.getTime()) {
          const retired = `was retired on ${deprecationHeaders.Sunset}; use GET ${route.successor}`;
          throw new ApiError('ENDPOINT_SUNSET', `${route.method} ${route.path} ${retired}`);
        }
      }
      const variables = { ...parseQuery(route.query, url.searchParams), ...pathIds };
      if (route.body) {
        const body = validateBody(route.body.schema, await readJsonBody(request, options.maxBodyBytes));
        variables.input = { ...route.body.defaults, ...body };
      }
      const result = await execute(route, variables, request, serverContext);
      const [error] = result.errors ?? [];
      if (error) return failure(error, headers, reply);
      return success(route, result.data?.[route.field], url, headers, reply);
    } catch (error) {
      if (!(error instanceof ApiError || error instanceof GraphQLError)) yoga.logger.error(error);
      return failure(error, headers, reply);
    }
  }

  return {
    onYogaInit({ yoga: instance }) {
      yoga = instance as unknown as Yoga;
    },
    onSchemaChange({ schema }) {
      for (const route of ROUTES) checkRoute(schema, route);
    },
    onRequest({ request, url, serverContext, fetchAPI, endResponse }) {
      if (isGraphQLPath(url.pathname)) return;
      return handle(request, url, serverContext as Resource, replyWith(fetchAPI)).then(endResponse);
    },
  };
}

type Reply = (status: number, body: unknown, headers: Headers) => Response;

const replyWith =
  (fetchAPI: FetchAPI): Reply =>
  (status, body, headers) =>
    body === undefined
      ? new fetchAPI.Response(null, { status, headers })
      : new fetchAPI.Response(stringifyJson(body), {
          status,
          headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
        });

function success(route: CompiledRoute, value: unknown, url: URL, headers: Headers, reply: Reply): Response {
  switch (route.success.kind) {
    case 'resource':
      return reply(200, withoutNulls(value as Resource), headers);
    case 'created': {
      const location = fill(route.success.location, value as Resource);
      return reply(201, withoutNulls(value as Resource), { ...headers, Location: location });
    }
    case 'deleted':
      return reply(204, undefined, headers);
    case 'page': {
      const { edges, pageInfo } = value as Connection;
      const next = pageInfo.hasNextPage && pageInfo.endCursor;
      const body = edges.map(({ node }) => withoutNulls(node));
      return reply(200, body, next ? { ...headers, Link: nextLink(url, next) } : headers);
    }
  }
}

/** The Error object of a store, GraphQL or request error; anything else is INTERNAL, with no details. */
function failure(error: unknown, headers: Headers, reply: Reply): Response {
  const masked = maskError(error, 'Unexpected error.');
  const extensions = masked instanceof GraphQLError ? masked.extensions : {};
  const code = isErrorCode(extensions.code) ? extensions.code : 'INTERNAL';
  const http = extensions.http as { headers?: Headers } | undefined;
  const body: ErrorBody = { code, message: masked.message, status: ERROR_STATUS[code] };
  return reply(body.status, body, { ...headers, ...http?.headers });
}

/** Root-relative, with the request's other query parameters, so that the next page keeps its filters. */
function nextLink(url: URL, cursor: string): string {
  const search = new URLSearchParams(url.searchParams);
  search.set('cursor', cursor);
  return `<${url.pathname}?${search}>; rel="next"`;
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
    path.allow = [...path.methods.keys()].join(', ');
    paths.set(route.path, path);
  }
  return [...paths.values()];
}

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
