import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';

const app = useTestApp();

// A keyed write runs in one transaction held across the request; each mutation field in a savepoint of it.
it('runs each mutation field of a keyed request in its own savepoint: a failed write leaves the others', async () => {
  const name = `Kept ${randomUUID()}`;
  const { status, body } = await app.graphql(
    `mutation($name: String!) {
      bad: createPet(input: { name: "Orphan", categoryId: 999999 }) { id }
      good: createCategory(input: { name: $name }) { id name }
    }`,
    { name },
    { headers: { 'Idempotency-Key': randomUUID() } },
  );
  expect(status).toBe(200);
  expect(body.errors).toMatchObject([
    { path: ['bad'], extensions: { code: 'VALIDATION_FAILED', status: 400 } },
  ]);
  expect(body.data).toEqual({ bad: null, good: { id: expect.any(Number), name } });
  expect(await app.prisma.category.count({ where: { name } })).toBe(1);
  expect(await app.prisma.pet.count({ where: { name: 'Orphan' } })).toBe(0);
});
