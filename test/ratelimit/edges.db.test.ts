import { expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';

const app = useTestApp();

it('treats only /graphql (and /graphql/) as GraphQL; every other path is REST, counted and headed', async () => {
  const tricky = await app.get('/pets?cursor=/graphql');
  expect(tricky.status).toBe(400);
  expect(tricky.body.code).toBe('VALIDATION_FAILED');
  expect(tricky.headers.get('x-ratelimit-limit')).not.toBeNull();

  // Yoga's own health check would answer any of the last three with an empty, uncounted 200.
  for (const [path, status] of [
    ['/x/graphql', 404],
    ['/store/health', 404],
    ['/pets/health', 400],
    ['/pets?status=/health', 400],
  ] as const) {
    const elsewhere = await app.get(path);
    expect([path, elsewhere.status]).toEqual([path, status]);
    expect(elsewhere.body.status).toBe(status);
    expect(elsewhere.headers.get('x-ratelimit-limit')).not.toBeNull();
  }

  const slash = await app.post('/graphql/', { query: '{ categories { edges { node { id } } } }' });
  expect(slash.status).toBe(200);
  expect(slash.headers.get('x-ratelimit-limit')).not.toBeNull();
});
