import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

it('treats only /graphql (and /graphql/) as GraphQL; every other path is REST, counted and headed', async () => {
  const tricky = await app.fetch(`/pets?cursor=/graphql`, { headers: { 'x-api-key': app.apiKey } });
  expect(tricky.status).toBe(400);
  expect((await tricky.json()).code).toBe('VALIDATION_FAILED');
  expect(tricky.headers.get('x-ratelimit-limit')).not.toBeNull();

  // Yoga's own health check would answer any of the last three with an empty, uncounted 200.
  for (const [path, status] of [
    ['/x/graphql', 404],
    ['/store/health', 404],
    ['/pets/health', 400],
    ['/pets?status=/health', 400],
  ] as const) {
    const elsewhere = await app.fetch(path, { headers: { 'x-api-key': app.apiKey } });
    expect([path, elsewhere.status]).toEqual([path, status]);
    expect((await elsewhere.json()).status).toBe(status);
    expect(elsewhere.headers.get('x-ratelimit-limit')).not.toBeNull();
  }

  const slash = await app.fetch(`/graphql/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': app.apiKey },
    body: JSON.stringify({ query: '{ categories { edges { node { id } } } }' }),
  });
  expect(slash.status).toBe(200);
  expect(slash.headers.get('x-ratelimit-limit')).not.toBeNull();
});
