import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { useRestClient } from './client.ts';

const MAX_BODY_BYTES = 1024;

const app = useTestApp({ env: { REST_MAX_BODY_BYTES: String(MAX_BODY_BYTES) } });
const rest = useRestClient(app);
let categoryId: number;
beforeAll(async () => {
  categoryId = (await rest.post('/categories', { name: 'Dogs' })).body.id;
});

describe('HTTP errors, each the Error object with its status, changing nothing', () => {
  it('404 for a path that does not exist', async () => {
    const { status, body } = await rest.get('/pets/1/owners');
    expect(status).toBe(404);
    expect(body).toEqual({
      code: 'NOT_FOUND',
      message: 'Nothing at /pets/1/owners; the paths are listed in /openapi.json',
      status: 404,
    });
  });

  it('405 with Allow for a method the path does not have', async () => {
    const before = await app.counts();
    const { status, body, headers } = await rest.request('PUT', '/pets', { body: { name: 'x', categoryId } });
    expect(status).toBe(405);
    expect(body.code).toBe('METHOD_NOT_ALLOWED');
    expect(headers.get('allow')).toBe('GET, HEAD, POST');
    expect((await rest.delete('/store/inventory/1')).headers.get('allow')).toBe('GET, HEAD, PUT');
    expect(await app.counts()).toEqual(before);
  });

  it('400 for malformed JSON and for a body that is not an object', async () => {
    const before = await app.counts();
    const malformed = await rest.post('/pets', '{"name": "Rex", ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('VALIDATION_FAILED');
    expect(malformed.body.message).toMatch(/^body: is not valid JSON/);
    const array = await rest.post('/pets', [{ name: 'Rex', categoryId }]);
    expect(array.body.message).toBe('body: must be an object');
    const empty = await rest.post('/pets', '');
    expect(empty.body.message).toMatch(/^body: is missing/);
    expect(await app.counts()).toEqual(before);
  });

  it('415 for a body that is not sent as JSON', async () => {
    const before = await app.counts();
    const text = await rest.post('/pets', JSON.stringify({ name: 'Rex', categoryId }), {
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(text.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const form = await rest.put(`/categories/${categoryId}`, 'name=Cats', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    const charset = await rest.post(
      '/pets',
      { name: 'Rex', categoryId },
      {
        headers: { 'content-type': 'application/json; charset=utf-8' },
      },
    );
    expect(charset.status).toBe(201);
    expect(await app.counts()).toEqual({ ...before, pets: before.pets + 1, inventory: before.inventory + 1 });
  });

  it('413 for a body over the limit, by Content-Length and by the bytes of a chunked body', async () => {
    const before = await app.counts();
    const big = { name: 'x'.repeat(MAX_BODY_BYTES), categoryId };
    const declared = await rest.post('/pets', big);
    expect(declared.status).toBe(413);
    expect(declared.body.code).toBe('PAYLOAD_TOO_LARGE');

    const text = JSON.stringify(big);
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < text.length; at += 100)
          controller.enqueue(new TextEncoder().encode(text.slice(at, at + 100)));
        controller.close();
      },
    });
    const streamed = await rest.post('/pets', chunked);
    expect(streamed.status).toBe(413);
    expect(streamed.body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await app.counts()).toEqual(before);
  });

  it('401 for a write without a key, and for an unknown key on any operation', async () => {
    const before = await app.counts();
    const anonymous = await rest.post('/pets', { name: 'Rex', categoryId }, { key: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('UNAUTHENTICATED');
    expect((await rest.delete(`/categories/${categoryId}`, { key: null })).status).toBe(401);
    const unknownKey = `psk_${'0'.repeat(43)}`;
    const unknown = await rest.get('/pets', { key: unknownKey });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('INVALID_API_KEY');
    expect(await app.counts()).toEqual(before);
    expect((await rest.get('/pets', { key: null })).status).toBe(200);
  });
});

describe('the rate-limit layer', () => {
  it('counts each REST request once, on the same quota as GraphQL', async () => {
    const remaining = (headers: Headers) => Number(headers.get('x-ratelimit-remaining'));
    const first = await rest.get('/pets');
    const second = await rest.get(`/categories/${categoryId}`);
    expect(remaining(second.headers)).toBe(remaining(first.headers) - 1);
    const graphql = await app.graphql('{ categories { edges { cursor } } }');
    expect(remaining(graphql.headers)).toBe(remaining(second.headers) - 1);
    const third = await rest.post('/pets', '{', {});
    expect(remaining(third.headers)).toBe(remaining(graphql.headers) - 1);
  });
});
