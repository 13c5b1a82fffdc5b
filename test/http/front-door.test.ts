import { describe, expect, it } from 'vitest';
import { FRONT_DOOR_LINKS } from '../../src/http/front-door.ts';
import { useTestApp } from '../support/app.ts';

const app = useTestApp();

const BROWSER_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe('GET /', () => {
  it('answers a browser an HTML page linking every entry point', async () => {
    const response = await app.get('/', { key: null, headers: { accept: BROWSER_ACCEPT } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('vary')).toBe('Accept');
    const html = response.text;
    expect(html).toContain('<title>Pet Store Gateway</title>');
    for (const href of ['/graphql', '/docs', '/openapi.json', '/healthz'])
      expect(html).toContain(`href="${href}"`);
    // Nothing on the page comes from elsewhere.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('answers an API client (curl, fetch, no Accept, JSON) the same links as JSON', async () => {
    for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html;q=0.5']) {
      const response = await app.get('/', { key: null, headers: accept ? { accept } : {} });
      expect(response.status, accept).toBe(200);
      expect(response.headers.get('content-type'), accept).toBe('application/json; charset=utf-8');
      const body = response.body;
      expect(body.name).toBe('Pet Store Gateway');
      expect(body.links.map((link: { href: string }) => link.href)).toEqual(
        FRONT_DOOR_LINKS.map((l) => l.href),
      );
    }
  });

  it('links only to paths the gateway answers 200', async () => {
    for (const { href } of FRONT_DOOR_LINKS) {
      const response = await app.get(href, { key: null, headers: { accept: BROWSER_ACCEPT } });
      expect(response.status, href).toBe(200);
    }
  });

  it('answers HEAD without a body and other methods 405 with the Error object', async () => {
    const head = await app.send('HEAD', '/', { key: null });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const post = await app.send('POST', '/', { key: null, body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(post.body).toMatchObject({ code: 'METHOD_NOT_ALLOWED', status: 405 });
  });
});

describe('GET /favicon.ico', () => {
  it('answers an icon', async () => {
    const response = await app.get('/favicon.ico', { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(response.text).toMatch(/^<svg /);
  });
});
