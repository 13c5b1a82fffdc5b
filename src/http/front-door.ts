import type { IncomingMessage, ServerResponse } from 'node:http';
import { GRAPHQL_ENDPOINT } from '../contract/endpoints.ts';
import type { OpsRoute } from './ops.ts';
import { sendBytes } from './ops.ts';

export interface FrontDoorLink {
  rel: string;
  href: string;
  title: string;
  /** One sentence for the page, under the title. */
  description: string;
}

const NAME = 'Pet Store Gateway';
const DESCRIPTION =
  'One pet store (pets, categories, orders, inventory) served as GraphQL and as REST, behind one rate limit with API keys and plans.';

/** What `/` points at, in the page's order; the JSON index lists the same. */
export const FRONT_DOOR_LINKS: readonly FrontDoorLink[] = [
  {
    rel: 'graphql',
    href: GRAPHQL_ENDPOINT,
    title: 'GraphQL, and GraphiQL in a browser',
    description:
      'Write and run queries against the demo catalogue; the schema documentation is one click away.',
  },
  {
    rel: 'docs',
    href: '/docs',
    title: 'REST API reference',
    description: 'Every REST path, its parameters, its answers and its errors, with a "Try it out" button.',
  },
  {
    rel: 'openapi',
    href: '/openapi.json',
    title: 'OpenAPI document',
    description: 'The REST API as an OpenAPI 3.0 document, for code generators and API clients.',
  },
  {
    rel: 'usage',
    href: '/usage',
    title: 'Your usage',
    description:
      'For API key holders: your plan, the quota left, requests and refusals over the last hour and week, your top operations.',
  },
  {
    rel: 'health',
    href: '/healthz',
    title: 'Health',
    description: 'Whether the process is up; /readyz says whether the database and rate-limit store answer.',
  },
];

/** The icon, drawn in SVG: browsers take it at /favicon.ico too, by its content type. */
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#2b5a8a"/><g fill="#fff"><ellipse cx="16" cy="21" rx="6.5" ry="5.5"/><circle cx="8.5" cy="13" r="2.8"/><circle cx="13" cy="8.5" r="2.8"/><circle cx="19" cy="8.5" r="2.8"/><circle cx="23.5" cy="13" r="2.8"/></g></svg>`;

const sendIcon: OpsRoute = (_req, res) =>
  sendBytes(res, 200, { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' }, FAVICON);

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 44rem; padding: 2rem 1.25rem; color: #1d2733; }
  h1 { font-size: 1.75rem; margin: 0 0 .25rem; display: flex; align-items: center; gap: .6rem; }
  h1 img { width: 2rem; height: 2rem; }
  p.lead { margin: 0 0 1.5rem; color: #3b4a5a; }
  ul { list-style: none; padding: 0; margin: 0; }
  li { border: 1px solid #d5dde6; border-radius: 8px; padding: .75rem 1rem; margin-bottom: .75rem; }
  li a { font-weight: 600; color: #1f5fa0; text-decoration: none; }
  li a:hover { text-decoration: underline; }
  li code { color: #5b6875; font-size: .9em; margin-left: .4rem; }
  li p { margin: .2rem 0 0; color: #3b4a5a; }
  footer { margin-top: 1.5rem; font-size: .9rem; color: #5b6875; }
  @media (prefers-color-scheme: dark) {
    body { background: #14191f; color: #e3e8ee; }
    p.lead, li p { color: #b7c2cd; }
    li { border-color: #34404c; }
    li a { color: #7cb4ec; }
    li code, footer { color: #98a4b0; }
  }`;

function renderPage(links: readonly FrontDoorLink[]): string {
  const items = links
    .map(
      (link) =>
        `<li><a href="${escapeHtml(link.href)}" rel="${escapeHtml(link.rel)}">${escapeHtml(link.title)}</a>` +
        `<code>${escapeHtml(link.href)}</code><p>${escapeHtml(link.description)}</p></li>`,
    )
    .join('\n      ');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${NAME}</title>
    <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
    <style>${STYLE}</style>
  </head>
  <body>
    <h1><img src="/favicon.svg" alt="" />${NAME}</h1>
    <p class="lead">${escapeHtml(DESCRIPTION)} Reads need no key; writes need an API key in the <code>X-API-Key</code> header.</p>
    <ul>
      ${items}
    </ul>
    <footer>API clients get the same links as JSON from this address (<code>Accept: application/json</code>).</footer>
  </body>
</html>
`;
}

/** The page only loads from the gateway itself; its one style block is inline. */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * The weight (q) the Accept header gives a media type: its own entry, else its `type/*`, else `*\/*`; 0 when
 * none matches. A missing header accepts everything.
 */
function weightOf(accept: string | undefined, type: string): number {
  if (!accept) return 1;
  const [major] = type.split('/');
  let best = { specificity: -1, q: 0 };
  for (const entry of accept.split(',')) {
    const [range = '', ...params] = entry.trim().toLowerCase().split(';');
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity <= best.specificity) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    best = { specificity, q: q ? Number(q.slice(2)) || 0 : 1 };
  }
  return best.q;
}

/** HTML when the client prefers it to JSON (a browser); JSON otherwise (API clients, curl's `*\/*`). */
export const prefersHtml = (req: IncomingMessage) =>
  weightOf(req.headers.accept, 'text/html') > weightOf(req.headers.accept, 'application/json');

/**
 * `/`: a page for a person who opened the gateway's address in a browser, and a JSON index of the same links
 * for API clients, chosen by Accept; and the icon (`/favicon.ico`, `/favicon.svg`).
 */
export function createFrontDoorRoutes(
  links: readonly FrontDoorLink[] = FRONT_DOOR_LINKS,
): Record<string, OpsRoute> {
  const html = renderPage(links);
  const json = JSON.stringify({
    name: NAME,
    description: DESCRIPTION,
    links: links.map(({ rel, href, title }) => ({ rel, href, title })),
  });
  return {
    '/': (req: IncomingMessage, res: ServerResponse) =>
      prefersHtml(req)
        ? sendBytes(
            res,
            200,
            {
              'content-type': 'text/html; charset=utf-8',
              'content-security-policy': CONTENT_SECURITY_POLICY,
              vary: 'Accept',
            },
            html,
          )
        : sendBytes(res, 200, { 'content-type': 'application/json; charset=utf-8', vary: 'Accept' }, json),
    '/favicon.ico': sendIcon,
    '/favicon.svg': sendIcon,
  };
}
