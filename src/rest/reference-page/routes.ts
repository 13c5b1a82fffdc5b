import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';

const swaggerUi = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const page = import.meta.dirname;

/** The files of the /docs page, by URL path: nothing else is read from disk, whatever the URL. */
const FILES: Record<string, string> = {
  '/docs': join(page, 'index.html'),
  '/docs/': join(page, 'index.html'),
  '/docs/assets/init.js': join(page, 'init.js'),
  '/docs/assets/marks.css': join(page, 'marks.css'),
  '/docs/assets/swagger-ui-bundle.js': join(swaggerUi, 'swagger-ui-bundle.js'),
  '/docs/assets/swagger-ui.css': join(swaggerUi, 'swagger-ui.css'),
  '/docs/assets/favicon-32x32.png': join(swaggerUi, 'favicon-32x32.png'),
};

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
};

// The page may load only from the gateway itself. Swagger UI sets inline styles and embeds icons as data URIs.
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'";

/**
 * The REST API reference at /docs: Swagger UI from the gateway's own node_modules (swagger-ui-dist),
 * rendering /openapi.json. Files are read once, on first request.
 */
export function createReferencePageRoutes() {
  const loaded = new Map<string, Buffer>();
  const serve = (file: string) => (req: IncomingMessage, res: ServerResponse) => {
    let body = loaded.get(file);
    if (!body) {
      body = readFileSync(file);
      loaded.set(file, body);
    }
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(file)],
      'content-length': body.length,
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'cache-control': 'public, max-age=300',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  return Object.fromEntries(Object.entries(FILES).map(([path, file]) => [path, serve(file)]));
}
