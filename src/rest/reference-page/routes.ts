import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { basename, dirname, extname, join } from 'node:path';
import { createStaticAsset, IMMUTABLE, REVALIDATE, type StaticAsset } from '../../contract/static-asset.ts';

const swaggerUi = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const page = import.meta.dirname;

/** The files the /docs page loads, under /docs/assets/: nothing else is read from disk, whatever the URL. */
const ASSET_FILES = [
  join(page, 'operation-marks.js'),
  join(page, 'compact-responses.js'),
  join(page, 'init.js'),
  join(page, 'marks.css'),
  join(swaggerUi, 'swagger-ui-bundle.js'),
  join(swaggerUi, 'swagger-ui.css'),
  join(swaggerUi, 'favicon-32x32.png'),
];

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
};

// The page may load only from the gateway itself. Swagger UI sets inline styles and embeds icons as data URIs.
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'";

type Route = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * The REST API reference at /docs: Swagger UI from the gateway's own node_modules (swagger-ui-dist), rendering
 * /openapi.json. The page names its assets by their content's hash (`swagger-ui-bundle.<hash>.js`), so a browser
 * keeps them for a year and asks again only for the page, which it revalidates. The unhashed names still answer,
 * revalidated. Files are hashed at start and kept from their first request.
 */
export function createReferencePageRoutes(): Record<string, Route> {
  const routes: Record<string, Route> = {};
  const hashedNames = new Map<string, string>();
  for (const file of ASSET_FILES) {
    const name = basename(file);
    const ext = extname(name);
    const hash = createHash('sha256').update(readFileSync(file)).digest('base64url').slice(0, 16);
    const hashed = `${name.slice(0, -ext.length)}.${hash}${ext}`;
    hashedNames.set(name, hashed);
    const load = (cacheControl: string) => () =>
      createStaticAsset(readFileSync(file), {
        'content-type': CONTENT_TYPES[ext] ?? 'application/octet-stream',
        'content-security-policy': CONTENT_SECURITY_POLICY,
        'cache-control': cacheControl,
      });
    routes[`/docs/assets/${hashed}`] = served(load(IMMUTABLE));
    routes[`/docs/assets/${name}`] = served(load(REVALIDATE));
  }
  const index = served(() =>
    createStaticAsset(
      readFileSync(join(page, 'index.html'), 'utf8').replace(
        /\/docs\/assets\/([\w.-]+)/g,
        (_path, name: string) => `/docs/assets/${hashedNames.get(name) ?? name}`,
      ),
      {
        'content-type': CONTENT_TYPES['.html'] as string,
        'content-security-policy': CONTENT_SECURITY_POLICY,
        'cache-control': REVALIDATE,
      },
    ),
  );
  routes['/docs'] = index;
  routes['/docs/'] = index;
  return routes;
}

/** Answers with the asset `make` builds on the first request. */
function served(make: () => StaticAsset): Route {
  let asset: StaticAsset | undefined;
  return (req, res) => {
    asset ??= make();
    return asset.answer(req, res);
  };
}
