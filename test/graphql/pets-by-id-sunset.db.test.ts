import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';

const SUNSET = Date.parse('2030-01-01T00:00:00Z');
const REASON =
  'Deprecated since 2029-01-01; from its sunset on 2030-01-01 it answers ENDPOINT_SUNSET (410). ' +
  'Use pets(ids: [id]) instead (REST: GET /pets?ids={petId}).';
const reasonQuery = `{ __type(name: "Query") { fields(includeDeprecated: true) { name deprecationReason } } }`;

let clock = SUNSET - 1000;
let petId: number;
const app = useTestApp({
  env: { PETS_BY_ID_DEPRECATED_AT: '2029-01-01', PETS_BY_ID_SUNSET_AT: '2030-01-01T00:00:00Z' },
  now: () => clock,
});
beforeAll(async () => {
  petId = (await app.createPet({ name: 'Rex' })).id;
});

async function reason() {
  const { __type } = await app.ok(reasonQuery);
  return (__type.fields as { name: string; deprecationReason: string }[]).find((f) => f.name === 'pet')
    ?.deprecationReason;
}

it('pet(id:) answers ENDPOINT_SUNSET (410) once the sunset passes, as REST does; its reason stays the same', async () => {
  const query = `query($id: Int64!) { pet(id: $id) { id name } }`;
  clock = SUNSET - 1000;
  expect(await reason()).toBe(REASON);
  const before = await app.graphql(query, { id: petId });
  expect(before.body).toEqual({ data: { pet: { id: petId, name: 'Rex' } } });
  expect((await app.fetch(`/pets/${petId}`)).status).toBe(200);

  clock = SUNSET;
  // The same query again: a result cached before the sunset must not answer after it.
  const after = await app.graphql(query, { id: petId });
  // A field's error, like NOT_FOUND for a missing pet: HTTP 200, the code and status in `extensions`.
  expect(after.status).toBe(200);
  expect(after.body.data).toEqual({ pet: null });
  expect(after.body.errors).toMatchObject([
    {
      message:
        'GET /pets/{petId} and pet(id:) were retired on Tue, 01 Jan 2030 00:00:00 GMT; use GET /pets?ids={petId} or pets(ids: [id])',
      path: ['pet'],
      extensions: { code: 'ENDPOINT_SUNSET', status: 410 },
    },
  ]);
  const rest = await app.fetch(`/pets/${petId}`);
  expect(rest.status).toBe(410);
  expect((await rest.json()).code).toBe('ENDPOINT_SUNSET');

  // The successor still answers, and the schema says the same as before the sunset (schema.graphql is stable).
  const successor = await app.ok(`query($id: Int64!) { pets(ids: [$id]) { edges { node { id } } } }`, {
    id: petId,
  });
  expect(successor.pets.edges).toEqual([{ node: { id: petId } }]);
  expect(await reason()).toBe(REASON);
});
