import { type ExecutionResult, GraphQLError, type GraphQLSchema, getOperationAST, print, validate } from 'graphql';
import type { FetchAPI, Plugin, YogaServerInstance } from 'graphql-yoga';
import { ApiError, ERROR_STATUS, type ErrorBody, type ErrorCode } from '../errors.ts';
import type { Deprecation } from '../graphql/deprecation.ts';
import { maskError } from '../graphql/errors.ts';
import { stringifyJson } from '../json.ts';
import { createBodyValidators, parseInt64, parseQuery, readJsonBody } from './request.ts';
import { type Method, pathParametersOf, ROUTES, type Route, rootFieldOf } from './routes.ts';

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

type Enveloped = ReturnType<YogaServerInstance<Record<string, unknown>, Record<string, unknown>>['getEnveloped']>;
type Headers = Record<string, string>;

const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && code in ERROR_STATUS;
const fill = (template: string, values: Record<string, unknown>) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));
const withoutNulls = (resource: Record<string, unknown>) =>
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
  let yoga: YogaServerInstance<Record<string, unknown>, Record<string, unknown>>;

  async function handle(request: Request, url: URL, serverContext: Record<string, unknown>, fetchAPI: FetchAPI) {
    const respond = (status: number, body: unknown, headers: Headers = {}) =>
      new fetchAPI.Response(body === undefined ? null : stringifyJson(body), {
        status,
        headers: body === undefined ? headers : { 'content-type': 'application/json; charset=utf-8', ...headers },
      });
    const fail = (error: ApiError, headers: Headers = {}) => respond(error.status, error.toBody(), headers);

    const path = paths.find(({ pattern }) => pattern.test(url.pathname));
    if (!path) {
      return fail(new ApiError('NOT_FOUND', `Nothing at ${url.pathname}; the paths are listed in /openapi.json`));
    }
    const route = path.methods.get(request.method);
    if (!route) {
      const problem = `${request.method} is not allowed on ${path.template}; it allows ${path.allow}`;
      return fail(new ApiError('METHOD_NOT_ALLOWED', problem), { Allow: path.allow });
    }
    const rawParameters = Object.fromEntries(
      path.parameters.map((name, index) => [name, path.pattern.exec(url.pathname)?.[index + 1] ?? '']),
    );
    const headers: Headers = route.successor
      ? { ...deprecationHeaders, Link: `<${fill(route.successor, rawParameters)}>; rel="successor-version"` }
      : {};

    try {
      if (route.successor && Date.now() >= sunsetAt.getTime()) {
        throw new ApiError(
          'ENDPOINT_SUNSET',
          `${route.method} ${route.path} was retired on ${deprecationHeaders.Sunset}; use GET ${route.successor}`,
        );
      }
      const variables: Record<string, unknown> = parseQuery(route.query, url.searchParams);
      for (const [name, text] of Object.entries(rawParameters)) {
        variables[name] = parseInt64(name, decodeURIComponent(text));
      }
      if (route.body) {
        const body = validateBody(route.body.schema, await readJsonBody(request, options.maxBodyBytes));
        variables.input = { ...route.body.defaults, ...body };
      }
      const result = await execute(route, variables, request, serverContext);
      const [error] = result.errors ?? [];
      if (error) return errorResponse(error, headers);
      return success(route, result.data?.[route.field], url, headers);
    } catch (error) {
      return errorResponse(error, headers);
    }

    function success(route: CompiledRoute, value: unknown, url: URL, headers: Headers): Response {
      const resource = value as Record<string, unknown>;
      switch (route.success.kind) {
        case 'resource':
          return respond(200, withoutNulls(resource), headers);
        case 'created':
          return respond(201, withoutNulls(resource), { ...headers, Location: fill(route.success.location, resource) });
        case 'deleted':
          return respond(204, undefined, headers);
        case 'page': {
          const connection = value as Connection;
          const next = connection.pageInfo.hasNextPage && connection.pageInfo.endCursor;
          const nodes = connection.edges.map(({ node }) => withoutNulls(node));
          return respond(200, nodes, next ? { ...headers, Link: nextLink(url, next) } : headers);
        }
      }
    }

    function errorResponse(error: unknown, headers: Headers): Response {
      const masked = maskError(error, 'Unexpected error.');
      const extensions = masked instanceof GraphQLError ? masked.extensions : {};
      const code = isErrorCode(extensions.code) ? extensions.code : 'INTERNAL';
      if (code === 'INTERNAL' && !(error instanceof GraphQLError)) yoga.logger.error(error);
      const http = extensions.http as { headers?: Headers } | undefined;
      const body: ErrorBody = { code, message: masked.message, status: ERROR_STATUS[code] };
      return respond(body.status, body, { ...headers, ...http?.headers });
    }
  }

  /** Runs the operation as Yoga runs a GraphQL request's: its context factory, then its execute. */
  async function execute(
    route: CompiledRoute,
    variables: Record<string, unknown>,
    request: Request,
    serverContext: Record<string, unknown>,
  ): Promise<ExecutionResult> {
    const initialContext = Object.assign(serverContext, { request, params: { query: route.source, variables } });
    const enveloped: Enveloped = yoga.getEnveloped(initialContext);
    const contextValue = await enveloped.contextFactory(initialContext);
    return (await enveloped.execute({
      schema: enveloped.schema,
      document: route.document,
      contextValue,
      variableValues: variables,
    })) as ExecutionResult;
  }

  return {
    onYogaInit({ yoga: instance }) {
      yoga = instance as unknown as typeof yoga;
    },
    onSchemaChange({ schema }) {
      for (const route of ROUTES) checkRoute(schema, route);
    },
    onRequest({ request, url, serverContext, fetchAPI, endResponse }) {
      if (url.pathname === yoga.graphqlEndpoint) return;
      return handle(request, url, serverContext as Record<string, unknown>, fetchAPI).then(endResponse);
    },
  };
}

interface Connection {
  edges: { node: Record<string, unknown> }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
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
function checkRoute(schema: GraphQLSchema, route: Route): void {
  const problems = validate(schema, route.document).map((error) => error.message);
  const declared = (getOperationAST(route.document)?.variableDefinitions ?? []).map((v) => v.variable.name.value);
  const expected = [
    ...pathParametersOf(route.path),
    ...(route.query ?? []).map((p) => p.name),
    ...(route.body ? ['input'] : []),
  ];
  if (declared.sort().join() !== expected.sort().join()) {
    problems.push(`its variables are ${declared.join(', ')}; its parameters are ${expected.join(', ')}`);
  }
  if (problems.length > 0) {
    throw new Error(`REST route ${route.method satisfies Method} ${route.path}: ${problems.join('; ')}`);
  }
}
