// One Int64 rule for both APIs (contract/int64.ts, docs/http.md): a JSON number up to 2^53-1 (by its value), or a
// string of digits for the whole int64 range; GraphQL variables and literals, REST bodies, paths and queries.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';

const app = useTestApp();
let categoryId: number;
beforeAll(async () => {
  categoryId = (await app.createPet({ name: 'Rex' })).categoryId;
});

/** JSON texts of ids that stand for the category's id, however they are spelled. */
const sameId = () => [String(categoryId), `"${categoryId}"`, `${categoryId}.0`, `${categoryId}e0`];
/** JSON texts of ids that are int64s, though no record has them. */
const otherInt64s = ['-5', '"-5"', '0', '"9223372036854775807"', '"-9223372036854775808"'];
/** JSON texts the rule refuses. */
const refused = [
  '"007"',
  '"+5"',
  '" 5"',
  '"5 "',
  '"1e3"',
  '"5.0"',
  '"-0"',
  '"0x10"',
  '""',
  '"9223372036854775808"',
  '"-9223372036854775809"',
  '9007199254740992',
  '-9007199254740992',
  '1.5',
  'true',
  'null',
  '[1]',
];

const RULE =
  /must be a whole number between -2\^63 and 2\^63-1: a JSON number up to 2\^53-1, or a string of digits/;

// The JSON texts are sent as they are written: JSON.stringify would not keep their spelling.
const createPetWith = (categoryIdJson: string) =>
  app.post('/pets', `{"name": "Ida", "categoryId": ${categoryIdJson}}`);

async function petsWithVariable(idJson: string) {
  const { body } = await app.postGraphQL(
    `{"query": "query($id: Int64!) { pets(ids: [$id]) { edges { node { id } } } }", "variables": {"id": ${idJson}}}`,
    { key: null },
  );
  return body as { data?: unknown; errors?: { message: string; extensions: object }[] };
}

describe('REST body', () => {
  it('takes the id as a number or a string of digits, by value', async () => {
    for (const json of sameId()) {
      const { status, body } = await createPetWith(json);
      expect(status, json).toBe(201);
      expect(body.categoryId, json).toBe(categoryId);
    }
  });

  it('reads any int64 (then finds no category), and refuses the rest naming the field, creating nothing', async () => {
    for (const json of otherInt64s) {
      const { status, body } = await createPetWith(json);
      expect(status, json).toBe(400);
      expect(body.message, json).not.toMatch(RULE);
    }
    const before = await app.count('pet');
    for (const json of refused.filter((json) => json !== 'null')) {
      const { status, body } = await createPetWith(json);
      expect({ json, status, code: body.code }).toEqual({ json, status: 400, code: 'VALIDATION_FAILED' });
      expect(body.message, json).toMatch(/^categoryId: /);
      expect(body.message, json).toMatch(RULE);
    }
    // A required field sent as null is refused as GraphQL refuses it (docs/store-rules.md).
    expect((await createPetWith('null')).body.message).toBe('categoryId: must not be null');
    expect(await app.count('pet')).toBe(before);
  });
});

describe('REST paths and query strings', () => {
  it('take the same strings of digits', async () => {
    const texts = (jsons: string[]) =>
      jsons.filter((json) => json.startsWith('"')).map((json) => JSON.parse(json));
    for (const text of [String(categoryId), ...texts(otherInt64s)]) {
      expect((await app.get(`/categories/${encodeURIComponent(text)}`, { key: null })).status, text).not.toBe(
        400,
      );
      expect(
        (await app.get(`/pets?categoryId=${encodeURIComponent(text)}`, { key: null })).status,
        text,
      ).toBe(200);
    }
    for (const text of texts(refused).filter((text) => text !== '')) {
      const path = await app.get(`/categories/${encodeURIComponent(text)}`, { key: null });
      expect(path.status, text).toBe(400);
      const query = await app.get(`/pets?categoryId=${encodeURIComponent(text)}`, { key: null });
      expect(query.status, text).toBe(400);
      expect(query.body.code).toBe('VALIDATION_FAILED');
    }
  });
});

describe('GraphQL', () => {
  it('takes a variable as a number or a string of digits, by value', async () => {
    for (const json of [...sameId(), ...otherInt64s]) {
      const result = await petsWithVariable(json);
      expect(result.errors, json).toBeUndefined();
    }
  });

  it('refuses the rest with VALIDATION_FAILED (400)', async () => {
    for (const json of refused.filter((json) => json !== 'null')) {
      const result = await petsWithVariable(json);
      expect(result.errors?.[0]?.extensions, json).toEqual({ code: 'VALIDATION_FAILED', status: 400 });
      expect(result.errors?.[0]?.message, json).toMatch(RULE);
    }
  });

  it('literals follow the same rule: an Int literal or a string of digits', async () => {
    for (const literal of [
      String(categoryId),
      `"${categoryId}"`,
      '"9223372036854775807"',
      '9223372036854775807',
    ]) {
      const { body } = await app.graphql(`{ pets(ids: [${literal}]) { edges { node { id } } } }`);
      expect(body.errors, literal).toBeUndefined();
    }
    for (const literal of [
      '"007"',
      '"+5"',
      '" 5"',
      '"1e3"',
      '1e3',
      '5.0',
      '"9223372036854775808"',
      '9223372036854775808',
    ]) {
      const { body } = await app.graphql(`{ pets(ids: [${literal}]) { edges { node { id } } } }`);
      expect(body.errors?.[0]?.extensions, literal).toEqual({ code: 'VALIDATION_FAILED', status: 400 });
      expect(body.errors?.[0]?.message, literal).toMatch(/Int64 must be/);
    }
  });
});
