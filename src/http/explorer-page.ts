import type { IncomingMessage, ServerResponse } from 'node:http';
import { isGraphQLPath } from '../contract/endpoints.ts';
import { createStaticAsset, REVALIDATE, type StaticAsset } from '../contract/static-asset.ts';
import { EXPLORER_OPTIONS } from '../graphql/yoga.ts';
import { nameOperation } from '../observability/request-context.ts';

/**
 * GraphiQL's page, answered where Yoga would render it (a GET or HEAD of the GraphQL endpoint that accepts HTML),
 * as a static asset: rendered and compressed once, tagged by its content, revalidated by the browser (a reload
 * costs a 304). Loaded on the first visit: GraphiQL's bundle is large (docs/performance.md).
 */
export function createExplorerPage() {
  let page: Promise<StaticAsset> | undefined;
  return function answerExplorer(req: IncomingMessage, res: ServerResponse): Promise<void> | false {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    if (!req.headers.accept?.includes('text/html')) return false;
    if (!isGraphQLPath(req.url?.split('?')[0] ?? '')) return false;
    nameOperation(req, 'graphql', 'graphiql');
    page ??= import('../graphql/graphiql-page.ts').then(({ renderExplorerPage }) =>
      createStaticAsset(renderExplorerPage(EXPLORER_OPTIONS), {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': REVALIDATE,
      }),
    );
    return page.then((asset) => asset.answer(req, res));
  };
}
