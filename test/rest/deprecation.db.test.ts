import { describe, expect, it } from 'vitest';
import { type TestApp, useTestApp } from '../support/app.ts';
import { expectErrorObject, useRestClient } from './client.ts';

const pet = { name: 'Rex', status: 'available' };
const deprecatedField = `{ __type(name: "Query") { fields(includeDeprecated: true) { name deprecationReason } } }`;

async function petField(app: TestApp) {
  const { __type } = await app.ok(deprecatedField);
  return (__type.fields as { name: string; deprecationReason: string | null }[]).find(
    (f) => f.name === 'pet',
  );
}

describe('GET /pets/{petId} before its sunset', () => {
  const app = useTestApp({
    env: { PETS_BY_ID_DEPRECATED_AT: '2026-01-15', PETS_BY_ID_SUNSET_AT: '2099-12-31T00:00:00Z' },
  });
  const rest = useRestClient(app);

  it('answers with the Deprecation, Sunset and successor Link headers, on success and on errors', async () => {
    const { id, categoryId } = await app.createPet(pet);
    const found = await rest.get(`/pets/${id}`);
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ id, categoryId, ...pet });
    expect(found.headers.get('deprecation')).toBe(`@${Date.UTC(2026, 0, 15) / 1000}`);
    expect(found.headers.get('sunset')).toBe('Thu, 31 Dec 2099 00:00:00 GMT');
    expect(found.headers.get('link')).toBe(`</pets?ids=${id}>; rel="successor-version"`);

    const successor = await rest.get(`/pets?ids=${id}`);
    expect(successor.body).toEqual([found.body]);

    const missing = await rest.get('/pets/777777');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('sunset')).toBe('Thu, 31 Dec 2099 00:00:00 GMT');
    expect(missing.headers.get('link')).toBe('</pets?ids=777777>; rel="successor-version"');
  });

  it('documents the configured sunset date, and the GraphQL field carries the same facts', async () => {
    expect(rest.document.paths['/pets/{petId}']?.get).toMatchObject({
      deprecated: true,
      'x-sunset': '2099-12-31T00:00:00.000Z',
    });
    const field = await petField(app);
    expect(field?.deprecationReason).toBe(
      'Deprecated since 2026-01-15; from its sunset on 2099-12-31 it answers ENDPOINT_SUNSET (410). Use pets(ids: [id]) instead (REST: GET /pets?ids={petId}).',
    );
  });
});

describe('GET /pets/{petId} after its sunset', () => {
  const app = useTestApp({
    env: { PETS_BY_ID_DEPRECATED_AT: '2020-01-01', PETS_BY_ID_SUNSET_AT: '2021-06-30T12:00:00Z' },
  });
  const rest = useRestClient(app);

  it('answers 410 ENDPOINT_SUNSET with the same headers; the successor still works', async () => {
    const { id } = await app.createPet(pet);
    const gone = await rest.get(`/pets/${id}`);
    expectErrorObject(
      gone,
      'ENDPOINT_SUNSET',
      'GET /pets/{petId} and pet(id:) were retired on Wed, 30 Jun 2021 12:00:00 GMT; use GET /pets?ids={petId} or pets(ids: [id])',
    );
    expect(gone.headers.get('deprecation')).toBe(`@${Date.UTC(2020, 0, 1) / 1000}`);
    expect(gone.headers.get('sunset')).toBe('Wed, 30 Jun 2021 12:00:00 GMT');
    expect(gone.headers.get('link')).toBe(`</pets?ids=${id}>; rel="successor-version"`);
    expect((await rest.get(`/pets?ids=${id}`)).body).toHaveLength(1);
    expect((await petField(app))?.deprecationReason).toContain('sunset on 2021-06-30');
  });

  it('leaves the other methods of /pets/{petId} alone', async () => {
    const { id } = await app.createPet({ name: 'Still here' });
    expect((await rest.patch(`/pets/${id}`, { status: 'sold' })).status).toBe(200);
    expect((await rest.delete(`/pets/${id}`)).status).toBe(204);
  });
});
