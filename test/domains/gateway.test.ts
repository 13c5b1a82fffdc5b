import { afterAll, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { writeDomainsFile } from '../support/domains-file.ts';
import { getWithHost } from '../support/host-request.ts';

// The whole gateway with DOMAINS_CONFIG set: host routing runs before every other layer.
const domainsFile = writeDomainsFile({
  attached: ['example.com'],
  redirects: [{ from: 'old.example.net', to: 'shop.example.com', status: 308 }],
});
// Removed once the app is closed (the hooks after the tests run last registered first).
afterAll(() => domainsFile.remove());
const app = useTestApp({ http: true, env: { DOMAINS_CONFIG: domainsFile.file } });

const get = async (host: string, path: string) => {
  const { status, headers, body } = await getWithHost(new URL(app.url).port, host, path);
  return { status, location: headers.location, body };
};

it('serves attached domains and loopback, redirects, and refuses other hosts with 421', async () => {
  expect((await get('shop.example.com', '/pets?limit=1')).status).toBe(200);
  expect((await get('EXAMPLE.com:8443', '/healthz')).status).toBe(200);
  expect((await get('localhost', '/healthz')).status).toBe(200);

  const moved = await get('old.example.net', '/pets?limit=2');
  expect(moved).toMatchObject({ status: 308, location: 'http://shop.example.com/pets?limit=2' });

  const refused = await get('elsewhere.example.org', '/pets');
  expect(refused.status).toBe(421);
  expect(JSON.parse(refused.body)).toMatchObject({ code: 'MISDIRECTED_REQUEST', status: 421 });
});
