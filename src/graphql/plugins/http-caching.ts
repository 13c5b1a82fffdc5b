import type { Plugin } from 'graphql-yoga';
import { API_VARY, cacheControlOf } from '../../contract/http-caching.ts';
import type { ServerContext } from '../context.ts';

/**
 * HTTP caching of API answers: a successful answer whose validator the rate-limit layer made before it ran (a
 * GET of REST, or a GraphQL GET query) carries its ETag and the Cache-Control its fields allow; everything
 * else an API request gets (writes, errors, refusals, streams) is `no-store`. Vary names what changes an answer
 * besides its URL, beside the Origin that CORS may have named.
 */
export function useHttpCaching({
  publicMaxAgeSeconds,
}: {
  publicMaxAgeSeconds: number;
}): Plugin<Record<string, never>, ServerContext> {
  return {
    onResultProcess({ result, serverContext }) {
      // A batch, a stream or an answer with errors is never kept.
      if (Array.isArray(result) || Symbol.asyncIterator in result || result.errors?.length) {
        serverContext.validator = undefined;
      }
    },
    onResponse({ serverContext, response }) {
      // Counted requests only: GraphiQL's page and the preflights are not API answers.
      if (!serverContext.quota) return;
      const { validator } = serverContext;
      const tagged = validator && (response.status === 200 || response.status === 304);
      if (tagged) response.headers.set('ETag', validator.tag);
      response.headers.set(
        'Cache-Control',
        cacheControlOf(tagged ? validator.scope : 'no-store', publicMaxAgeSeconds),
      );
      const origin = serverContext.res?.getHeader('vary');
      response.headers.set('Vary', origin ? `${origin}, ${API_VARY}` : API_VARY);
    },
  };
}
