import { Response } from '@whatwg-node/fetch';
import { GraphQLError } from 'graphql';
import { errorResponse } from '../contract/error-response.ts';
import { ERROR_STATUS, isErrorCode } from '../contract/errors.ts';
import { stringifyJson } from '../contract/json.ts';
import { maskError } from '../graphql/errors.ts';
import type { CompiledRoute } from './match.ts';

type Headers = Record<string, string>;
type Resource = Record<string, unknown>;

interface Connection {
  edges: { node: Resource }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** The root field's value as the route's success: the resource, the created one, no body, or a page. */
export function respond(route: CompiledRoute, value: unknown, url: URL, headers: Headers): Response {
  switch (route.success.kind) {
    case 'resource':
      return json(200, withoutNulls(value as Resource), headers);
    case 'created': {
      const location = fillTemplate(route.success.location, value as Resource);
      return json(201, withoutNulls(value as Resource), { ...headers, Location: location });
    }
    case 'deleted':
      return new Response(null, { status: 204, headers });
    case 'page': {
      const { edges, pageInfo } = value as Connection;
      const next = pageInfo.hasNextPage && pageInfo.endCursor;
      const body = edges.map(({ node }) => withoutNulls(node));
      return json(200, body, next ? { ...headers, Link: nextLink(url, next) } : headers);
    }
  }
}

/** The Error object of a store, GraphQL or request error; anything else is INTERNAL, with no details. */
export function respondWithError(error: unknown, headers: Headers): Response {
  const masked = maskError(error);
  const extensions = masked instanceof GraphQLError ? masked.extensions : {};
  const code = isErrorCode(extensions.code) ? extensions.code : 'INTERNAL';
  const http = extensions.http as { headers?: Headers } | undefined;
  const body = { code, message: masked.message, status: ERROR_STATUS[code] };
  return errorResponse(body, { ...headers, ...http?.headers });
}

const fillTemplate = (template: string, values: Record<string, unknown>) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));

const json = (status: number, body: unknown, headers: Headers) =>
  new Response(stringifyJson(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });

const withoutNulls = (resource: Resource) =>
  Object.fromEntries(Object.entries(resource).filter(([, value]) => value !== null));

/** Root-relative, with the request's other query parameters, so that the next page keeps its filters. */
function nextLink(url: URL, cursor: string): string {
  const search = new URLSearchParams(url.searchParams);
  search.set('cursor', cursor);
  return `<${url.pathname}?${search}>; rel="next"`;
}
