import { renderGraphiQL } from '@graphql-yoga/render-graphiql';

// GraphiQL's schema load goes as GET, where the rate limit sees before any body that it reads only the schema
// and counts it in the introspection budget (docs/rate-limits.md). Only that request: other queries stay POSTs,
// which no URL length limits. GraphiQL's fetcher keeps the fetch it finds when it loads, so this runs first.
const SCHEMA_LOAD_AS_GET = `(() => {
  const post = window.fetch.bind(window);
  window.fetch = (input, init) => {
    if (init && init.method === 'POST' && typeof init.body === 'string') {
      try {
        const { query, operationName } = JSON.parse(init.body);
        if (operationName === 'IntrospectionQuery' && typeof query === 'string') {
          const url = new URL(String(input), location.href);
          url.searchParams.set('query', query);
          url.searchParams.set('operationName', operationName);
          const headers = new Headers(init.headers);
          headers.delete('content-type');
          return post(url, { ...init, method: 'GET', body: undefined, headers });
        }
      } catch {}
    }
    return post(input, init);
  };
})();`;

// GraphiQL loads the schema once, with the headers of that moment, and again only from its "Re-fetch GraphQL
// schema" button: a key pasted in the headers editor did not reach the schema (the docs explorer stayed
// empty after a refused load). This script presses that button once the headers' text has been left alone
// for half a second (the person's edits only). Its props cannot be set from the page (Yoga renders GraphiQL from JSON options), and the
// editors are Monaco's, whose text shows in the DOM: so it watches that.
const REFETCH_SCHEMA_ON_HEADER_EDIT = `(() => {
  let last;
  let timer;
  new MutationObserver(() => {
    const editor = document.querySelector('.monaco-editor[data-uri$="-request-headers.json"]');
    const text = editor?.querySelector('.view-lines')?.textContent;
    if (text === undefined || text === last) return;
    last = text;
    // Only the person's edits: not GraphiQL filling the editor in, nor switching tabs.
    if (!editor.contains(document.activeElement)) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      document.querySelector('button[aria-label^="Re-fetch GraphQL schema"]')?.click();
    }, 500);
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
})();`;

/**
 * Yoga's GraphiQL page, served from the package itself, with its schema load sent as GET and the schema
 * refetched when the headers change.
 */
export function renderExplorerPage(options: Parameters<typeof renderGraphiQL>[0]): string {
  return renderGraphiQL(options)
    .replace('<head>', `<head><script>${SCHEMA_LOAD_AS_GET}</script>`)
    .replace(/<\/body>(?![\s\S]*<\/body>)/, `<script>${REFETCH_SCHEMA_ON_HEADER_EDIT}</script></body>`);
}
