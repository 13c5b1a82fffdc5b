import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { expectErrorObject, useRestClient } from './client.ts';

const app = useTestApp();
const rest = useRestClient(app);
let dogs: { id: number; name: string };
beforeAll(async () => {
  dogs = (await rest.post('/categories', { name: 'Dogs', description: 'Barks' })).body;
});

describe('pets', () => {
  it('creates a pet: 201, Location, the Pet resource; GraphQL sees it', async () => {
    const created = await rest.post('/pets', { name: 'Rex', categoryId: dogs.id });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Rex',
      categoryId: dogs.id,
      status: 'available',
    });
    expect(created.headers.get('location')).toBe(`/pets/${created.body.id}`);

    const { pets } = await app.ok(
      `query($ids: [Int64!]) { pets(ids: $ids) { edges { node { name status } } } }`,
      {
        ids: [created.body.id],
      },
    );
    expect(pets.edges).toEqual([{ node: { name: 'Rex', status: 'available' } }]);
  });

  it('reads by ids what GraphQL created', async () => {
    const a = await app.createPet({ name: 'Ada', categoryId: dogs.id, status: 'sold' });
    const b = await app.createPet({ name: 'Bo', categoryId: dogs.id });
    const { status, body } = await rest.get(`/pets?ids=${b.id},${a.id}`);
    expect(status).toBe(200);
    expect(body).toEqual([a, b]);
  });

  it('filters by status and category', async () => {
    const cats = (await rest.post('/categories', { name: 'Cats' })).body;
    const tom = (await rest.post('/pets', { name: 'Tom', categoryId: cats.id, status: 'pending' })).body;
    expect((await rest.get(`/pets?categoryId=${cats.id}`)).body).toEqual([tom]);
    const pending = (await rest.get('/pets?status=pending')).body as { status: string }[];
    expect(pending).toContainEqual(tom);
    expect(pending.every((pet) => pet.status === 'pending')).toBe(true);
    expect((await rest.get(`/pets?categoryId=${cats.id}&status=sold`)).body).toEqual([]);
  });

  it('replaces a pet with PUT: required fields, and a status left out becomes available', async () => {
    const pet = await app.createPet({ name: 'Old', categoryId: dogs.id, status: 'sold' });
    const replaced = await rest.put(`/pets/${pet.id}`, { name: 'New', categoryId: dogs.id });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ id: pet.id, name: 'New', categoryId: dogs.id, status: 'available' });

    const before = await app.snapshot();
    const partial = await rest.put(`/pets/${pet.id}`, { name: 'Newer' });
    expectErrorObject(partial, 'VALIDATION_FAILED', 'categoryId: is required');
    expect(await app.snapshot()).toEqual(before);
  });

  it('changes only the fields given with PATCH', async () => {
    const pet = await app.createPet({ name: 'Patchy', categoryId: dogs.id });
    const patched = await rest.patch(`/pets/${pet.id}`, { status: 'pending' });
    expect(patched.body).toEqual({ ...pet, status: 'pending' });
  });

  it('refuses an unknown category, an unknown field and a bad status, naming the field, changing nothing', async () => {
    const pet = await app.createPet({ name: 'Steady', categoryId: dogs.id });
    const before = await app.snapshot();
    const refusals = [
      [await rest.post('/pets', { name: 'Ghost', categoryId: 999_999 }), 'categoryId'],
      [await rest.post('/pets', { name: 'Extra', categoryId: dogs.id, color: 'brown' }), 'color'],
      [await rest.patch(`/pets/${pet.id}`, { status: 'lost' }), 'status'],
      [await rest.patch(`/pets/${pet.id}`, { name: '   ' }), 'name'],
      [await rest.put(`/pets/${pet.id}`, { name: 'X', categoryId: 999_999 }), 'categoryId'],
    ] as const;
    for (const [response, field] of refusals) {
      expect(response.status, response.text).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
      expect(response.body.message).toMatch(new RegExp(`^${field}: `));
    }
    expect(await app.snapshot()).toEqual(before);
  });

  it('refuses a name longer than the documented 200 characters, naming it, changing nothing', async () => {
    const before = await app.snapshot();
    const refused = await rest.post('/pets', { name: 'x'.repeat(201), categoryId: dogs.id });
    expectErrorObject(refused, 'VALIDATION_FAILED', 'name: must be at most 200 characters (got 201)');
    expect(await app.snapshot()).toEqual(before);
  });

  it('deletes a pet: 204, then 404', async () => {
    const pet = await app.createPet({ name: 'Gone', categoryId: dogs.id });
    const deleted = await rest.delete(`/pets/${pet.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await rest.get(`/pets?ids=${pet.id}`)).body).toEqual([]);
    const again = await rest.delete(`/pets/${pet.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ code: 'NOT_FOUND', message: `Pet ${pet.id} does not exist`, status: 404 });
  });

  it('answers 404 for a pet that does not exist on every method of /pets/{petId}', async () => {
    for (const response of [
      await rest.put('/pets/424242', { name: 'X', categoryId: dogs.id }),
      await rest.patch('/pets/424242', { name: 'X' }),
      await rest.delete('/pets/424242'),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('NOT_FOUND');
    }
  });
});

describe('paging', () => {
  it('pages /pets with limit and cursor, the next page in the Link header with the filters kept', async () => {
    const herd = (await rest.post('/categories', { name: 'Herd' })).body;
    const created = [];
    for (let i = 0; i < 25; i++) {
      created.push((await rest.post('/pets', { name: `Sheep ${i}`, categoryId: herd.id })).body);
    }
    const first = await rest.get(`/pets?categoryId=${herd.id}`);
    expect(first.body).toEqual(created.slice(0, 20));
    const link = first.headers.get('link');
    expect(link).toMatch(new RegExp(`^</pets\\?categoryId=${herd.id}&cursor=[^>]+>; rel="next"$`));

    const next = await rest.get((link?.match(/<([^>]+)>/) ?? [])[1] as string);
    expect(next.body).toEqual(created.slice(20));
    expect(next.headers.get('link')).toBeNull();

    const pages = [];
    let url: string | undefined = `/pets?categoryId=${herd.id}&limit=10`;
    while (url) {
      const page = await rest.get(url);
      pages.push(page.body.length);
      url = page.headers.get('link')?.match(/<([^>]+)>/)?.[1];
    }
    expect(pages).toEqual([10, 10, 5]);
  });

  it('pages /categories the same way', async () => {
    const one = await rest.get('/categories?limit=1');
    expect(one.body).toHaveLength(1);
    expect(one.headers.get('link')).toMatch(/^<\/categories\?limit=1&cursor=[^>]+>; rel="next"$/);
  });

  it('refuses a limit beyond 100 or below 1, more than 100 ids, and an unknown parameter, naming it', async () => {
    const cases = [
      ['/pets?limit=101', /^limit: must be a whole number from 1 to 100/],
      ['/pets?limit=0', /^limit: /],
      ['/categories?limit=abc', /^limit: /],
      [
        `/pets?ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`,
        /^ids: takes at most 100 values/,
      ],
      ['/pets?ids=1,two', /^ids: must be a whole number/],
      ['/pets?stauts=sold', /^stauts: is not a query parameter/],
      ['/pets?status=lost', /^status: must be one of available, pending, sold/],
      ['/pets?cursor=garbage', /cursor/i],
    ] as const;
    for (const [path, message] of cases) {
      const { status, body } = await rest.get(path);
      expect(status, path).toBe(400);
      expect(body.message, path).toMatch(message);
    }
  });
});

describe('categories', () => {
  it('creates, reads, replaces, patches and deletes a category', async () => {
    const created = await rest.post('/categories', { name: 'Birds', description: 'Sing' });
    expect(created.status).toBe(201);
    const { id } = created.body;
    expect(created.headers.get('location')).toBe(`/categories/${id}`);
    expect((await rest.get(`/categories/${id}`)).body).toEqual({ id, name: 'Birds', description: 'Sing' });

    const replaced = await rest.put(`/categories/${id}`, { name: 'Parrots' });
    expect(replaced.body).toEqual({ id, name: 'Parrots' });
    const described = await rest.patch(`/categories/${id}`, { description: 'Talk' });
    expect(described.body).toEqual({ id, name: 'Parrots', description: 'Talk' });
    const undescribed = await rest.patch(`/categories/${id}`, { description: null });
    expect(undescribed.body).toEqual({ id, name: 'Parrots' });

    const { category } = await app.ok(`query($id: Int64!) { category(id: $id) { name description } }`, {
      id,
    });
    expect(category).toEqual({ name: 'Parrots', description: null });

    expect((await rest.delete(`/categories/${id}`)).status).toBe(204);
    expect((await rest.get(`/categories/${id}`)).status).toBe(404);
  });

  it('refuses to delete a category that has pets: 409, nothing deleted', async () => {
    const fish = (await rest.post('/categories', { name: 'Fish' })).body;
    await rest.post('/pets', { name: 'Nemo', categoryId: fish.id });
    const before = await app.snapshot();
    const refused = await rest.delete(`/categories/${fish.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CONFLICT');
    expect(await app.snapshot()).toEqual(before);
  });
});

describe('int64 ids', () => {
  const beyond = '9007199254740993'; // 2^53 + 1: a JSON parser would read 9007199254740992

  it('reads path ids exactly and writes them exactly in bodies', async () => {
    await app.prisma.category.create({ data: { id: BigInt(beyond), name: 'Big' } });
    const { status, text } = await rest.get(`/categories/${beyond}`);
    expect(status).toBe(200);
    expect(text).toBe(`{"id":${beyond},"name":"Big"}`);
    expect((await rest.get('/pets/9007199254740992')).body.message).toBe(
      'Pet 9007199254740992 does not exist',
    );
  });

  it('refuses a number beyond 2^53 in a JSON body, naming the field, rather than round it', async () => {
    const before = await app.snapshot();
    const refused = await rest.post('/pets', `{"name":"Huge","categoryId":${beyond}}`);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(
      /^categoryId: must be .*a JSON number up to 2\^53-1, or a string of digits/,
    );
    expect(await app.snapshot()).toEqual(before);
  });

  it('takes an id beyond 2^53 in a JSON body as a string of digits, exactly', async () => {
    const created = await rest.post('/pets', `{"name":"Huge","categoryId":"${beyond}"}`);
    expect(created.status).toBe(201);
    expect(created.text).toContain(`"categoryId":${beyond}`);
  });

  it('refuses a path id that is not an int64', async () => {
    for (const id of ['abc', '1.5', '99999999999999999999']) {
      const { status, body } = await rest.get(`/categories/${id}`);
      expect(status).toBe(400);
      expect(body.message).toMatch(/^categoryId: must be a whole number \(int64\)/);
    }
  });
});
