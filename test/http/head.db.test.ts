import { beforeAll, expect, it } from 'vitest';
import { ROUTES } from '../../src/rest/routes.ts';
import { useTestApp } from '../support/app.ts';

// Over HTTP: what node:http leaves out of a HEAD's answer, and its framing, is what is compared.
const app = useTestApp({ http: true });
let ids: Record<string, number>;
beforeAll(async () => {
  const pet = await app.createPet({ name: 'Rex' });
  await app.ok(`mutation { updateInventory(petId: ${pet.id}, input: { quantity: 3 }) { quantity } }`);
  const order = await app.ok(`mutation { placeOrder(input: { petId: ${pet.id} }) { id } }`);
  ids = { petId: pet.id, categoryId: pet.categoryId, orderId: order.placeOrder.id };
});

// What may differ between two answers to the same request: per-request ids, the clock, the quota just spent,
// the framing of a body HEAD does not have, and the connection (undici's fetch asks to close after a HEAD).
const VOLATILE = new Set([
  'connection',
  'keep-alive',
  'date',
  'x-request-id',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'ratelimit',
  'transfer-encoding',
]);
const stable = (headers: Headers) => Object.fromEntries([...headers].filter(([name]) => !VOLATILE.has(name)));

async function expectHeadLikeGet(path: string, headers?: Record<string, string>) {
  const get = await app.send('GET', path, { headers: headers });
  const head = await app.send('HEAD', path, { headers: headers });
  expect(head.status, `HEAD ${path}`).toBe(get.status);
  expect(stable(head.headers), `HEAD ${path}`).toEqual(stable(get.headers));
  expect(head.text, `HEAD ${path}`).toBe('');
}

const restGetPaths = () =>
  ROUTES.filter((route) => route.method === 'GET').map((route) =>
    route.path.replace(/\{(\w+)\}/g, (_, name: string) => String(ids[name])),
  );

it('HEAD on every REST GET path: the same status and headers as GET, no body', async () => {
  expect(restGetPaths()).toHaveLength(ROUTES.filter((route) => route.method === 'GET').length);
  for (const path of restGetPaths()) await expectHeadLikeGet(path);
  // Errors too: a pet that does not exist, a bad id, a page query that is refused.
  for (const path of ['/pets/999999', '/pets/x', '/pets?limit=500', '/pets/1/owners']) {
    await expectHeadLikeGet(path);
  }
});

const OPERATIONAL_PATHS = [
  '/openapi.json',
  '/healthz',
  '/readyz',
  '/docs',
  '/docs/',
  '/docs/assets/init.js',
  '/docs/assets/swagger-ui.css',
];

it('HEAD on the operational paths and the /docs page', async () => {
  for (const path of OPERATIONAL_PATHS) await expectHeadLikeGet(path);
  // The metrics' text changes with every request; its status and type do not.
  const head = await app.send('HEAD', '/metrics');
  expect(head.status).toBe(200);
  expect(head.headers.get('content-type')).toMatch(/^text\/plain/);
  expect(head.text).toBe('');
});

it("HEAD on /graphql: GraphiQL's page and a query in the URL, as their GET", async () => {
  await expectHeadLikeGet('/graphql', { accept: 'text/html' });
  await expectHeadLikeGet(`/graphql?query=${encodeURIComponent('{ __typename }')}`, {
    accept: 'application/json',
  });
});

it('HEAD is counted by the rate limit like GET', async () => {
  const remaining = async (method: string) =>
    Number((await app.send(method, `/pets/${ids.petId}`)).headers.get('x-ratelimit-remaining'));
  const first = await remaining('GET');
  expect(await remaining('HEAD')).toBe(first - 1);
  expect(await remaining('GET')).toBe(first - 2);
});

it('a 405 lists HEAD beside GET in Allow', async () => {
  const refused = await app.send('DELETE', '/pets');
  expect(refused.status).toBe(405);
  expect(refused.headers.get('allow')).toBe('GET, HEAD, POST');
  const write = await app.send('POST', `/store/inventory/${ids.petId}`);
  expect(write.headers.get('allow')).toBe('GET, HEAD, PUT');
});
