import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';

let petId: number;
const app = useTestApp({ http: true });
beforeAll(async () => {
  for (let i = 0; i < 30; i++) petId = (await app.createPet({ name: `Pet number ${i}` })).id;
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request whose body comes back as sent on the wire (fetch would decode it). */
function raw(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  const url = new URL(path, app.url);
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { 'x-api-key': app.apiKey, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = ({ headers, body }: Raw) =>
  headers['content-encoding'] === 'br'
    ? brotliDecompressSync(body)
    : headers['content-encoding'] === 'gzip'
      ? gunzipSync(body)
      : body;

describe('compression by Accept-Encoding', () => {
  it('GraphiQL: br, else gzip, else as it is; the same page, tagged, and a reload of it is a 304', async () => {
    const plain = await raw('/graphql', { accept: 'text/html' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const tag = plain.headers.etag as string;
    for (const [acceptEncoding, coding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip;q=0.5', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const answer = await raw('/graphql', { accept: 'text/html', 'accept-encoding': acceptEncoding });
      expect(answer.headers['content-encoding'], acceptEncoding).toBe(coding);
      expect(answer.headers.vary).toBe('Accept-Encoding');
      expect(answer.headers.etag).toBe(tag);
      expect(Number(answer.headers['content-length'])).toBe(answer.body.byteLength);
      expect(decode(answer).equals(plain.body), acceptEncoding).toBe(true);
    }
    const br = await raw('/graphql', { accept: 'text/html', 'accept-encoding': 'br' });
    expect(br.body.byteLength).toBeLessThan(plain.body.byteLength / 4);
    const reload = await raw('/graphql', {
      accept: 'text/html',
      'accept-encoding': 'br',
      'if-none-match': tag,
    });
    expect(reload.status).toBe(304);
    expect(reload.body.byteLength).toBe(0);
    expect(reload.headers['cache-control']).toBe('public, no-cache');
  });

  it('/docs names its assets by their content hash, kept a year; the page and /openapi.json are revalidated', async () => {
    const page = await raw('/docs', { 'accept-encoding': 'br' });
    expect(page.headers['cache-control']).toBe('public, no-cache');
    const html = decode(page).toString();
    const assets = [...html.matchAll(/\/docs\/assets\/[\w.-]+/g)].map(([path]) => path);
    // Swagger UI's script, styles and icon, and the page's own: init.js, its two plugins and marks.css.
    expect(assets.length).toBe(7);
    for (const path of assets) {
      expect(path).toMatch(/\.[\w-]{16}\.(js|css|png)$/);
      const asset = await raw(path, { 'accept-encoding': 'gzip' });
      expect(asset.status, path).toBe(200);
      expect(asset.headers['cache-control'], path).toBe('public, max-age=31536000, immutable');
      expect(asset.headers.etag, path).toMatch(/^W\/"/);
    }
    const bundle = await raw(assets.find((path) => path.includes('bundle')) as string, {
      'accept-encoding': 'br',
    });
    expect(bundle.headers['content-encoding']).toBe('br');
    for (const path of ['/docs', '/openapi.json', '/docs/assets/swagger-ui-bundle.js']) {
      const first = await raw(path);
      const again = await raw(path, { 'if-none-match': first.headers.etag as string });
      expect(again.status, path).toBe(304);
      expect(again.body.byteLength).toBe(0);
    }
    const openapi = await raw('/openapi.json', { 'accept-encoding': 'gzip' });
    expect(openapi.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decode(openapi).toString()).openapi).toBe('3.0.3');
  });

  it('API answers above the threshold are compressed, below it not; HEAD agrees with GET', async () => {
    const page = await raw('/pets?limit=30', { 'accept-encoding': 'br' });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers.vary).toBe('Accept, Accept-Encoding, X-API-Key');
    expect(JSON.parse(decode(page).toString())).toHaveLength(30);
    const head = await raw('/pets?limit=30', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(page.headers['content-length']);
    const one = await raw(`/pets/${petId}`, { 'accept-encoding': 'br' });
    expect(one.status).toBe(200);
    expect(one.headers['content-encoding']).toBeUndefined();
    const query = encodeURIComponent('{ pets(first: 30) { edges { node { id name status } } } }');
    const graphql = await raw(`/graphql?query=${query}`, {
      'accept-encoding': 'gzip',
      accept: 'application/json',
    });
    expect(graphql.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decode(graphql).toString()).data.pets.edges).toHaveLength(30);
  });

  it('a subscription stream is never compressed nor held back', async () => {
    const abort = new AbortController();
    const query = `subscription { inventoryChanged(petId: ${petId}) { quantity } }`;
    const response = await fetch(`${app.url}/graphql?query=${encodeURIComponent(query)}`, {
      headers: { accept: 'text/event-stream', 'accept-encoding': 'br, gzip', 'x-api-key': app.apiKey },
      signal: abort.signal,
    });
    try {
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      // Sent as it is (`none`, when said, tells proxies not to compress it either).
      expect(response.headers.get('content-encoding') ?? 'none').toBe('none');
      expect(response.headers.get('cache-control')).toBe('no-store');
      await firstEvent(response);
    } finally {
      abort.abort();
    }
  });
});

async function firstEvent(response: Response) {
  {
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await app.ok(`mutation { updateInventory(petId: ${petId}, input: { quantity: 9 }) { quantity } }`);
    let text = '';
    while (!text.includes('"quantity":9')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text).toContain('"quantity":9');
  }
}
