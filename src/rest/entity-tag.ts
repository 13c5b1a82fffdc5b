import type { TagRequest } from '../contract/http-caching.ts';
import type { TagRead } from '../graphql/entity-tags.ts';
import { createMatcher } from './match.ts';
import type { Route } from './route.ts';

/** A REST GET (or HEAD) is tagged by its route's operation and its path and query, as sent. */
export function restEntityTags(routes: Route[], tagRead: TagRead): TagRequest {
  const match = createMatcher(routes);
  return (request, url) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    const found = match('GET', url.pathname);
    if (!('route' in found)) return undefined;
    const { document } = found.route;
    const identity = `GET ${url.pathname}${url.search}`;
    return (caller) => tagRead({ document, request: identity, caller });
  };
}
