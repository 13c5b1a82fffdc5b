import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { PLACE_ORDER_PER_MINUTE: '1' } });
});
afterAll(() => app.close());

const remaining = (response: { headers: Headers }) => Number(response.headers.get('x-ratelimit-remaining'));

it('refuses an order over the per-field limit with HTTP 429 and gives the point back', async () => {
  const pet = await app.createPet({ name: 'Limited' });
  await app.ok(`mutation { updateInventory(petId: ${pet.id}, input: { quantity: 5 }) { quantity } }`);
  const order = `mutation { placeOrder(input: { petId: ${pet.id} }) { id } }`;
  const first = await app.graphql(order);
  expect(first.status).toBe(200);

  const refused = await app.graphql(order);
  expect(refused.status).toBe(429);
  expect(refused.body.errors?.[0]?.extensions).toEqual({ code: 'RATE_LIMITED', status: 429 });
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  // The refused request consumed nothing: the next one sees the same quota left as after the first order.
  expect(remaining(refused)).toBe(remaining(first));
  const next = await app.graphql('{ categories { edges { node { id } } } }');
  expect(remaining(next)).toBe(remaining(first) - 1);
  expect((await app.ok(`{ inventoryItem(petId: ${pet.id}) { quantity } }`)).inventoryItem.quantity).toBe(4);
});

it('treats only /graphql (and /graphql/) as GraphQL; every other path is REST, counted and headed', async () => {
  const tricky = await fetch(`${app.url}/pets?cursor=/graphql`, { headers: { 'x-api-key': app.apiKey } });
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
    const elsewhere = await fetch(`${app.url}${path}`, { headers: { 'x-api-key': app.apiKey } });
    expect([path, elsewhere.status]).toEqual([path, status]);
    expect((await elsewhere.json()).status).toBe(status);
    expect(elsewhere.headers.get('x-ratelimit-limit')).not.toBeNull();
  }

  const slash = await fetch(`${app.url}/graphql/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': app.apiKey },
    body: JSON.stringify({ query: '{ categories { edges { node { id } } } }' }),
  });
  expect(slash.status).toBe(200);
  expect(slash.headers.get('x-ratelimit-limit')).not.toBeNull();
});
