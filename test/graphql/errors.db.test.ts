import { expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';

const app = useTestApp();

it('masks an unexpected failure: INTERNAL, no SQL, no stack', async () => {
  const { target } = app.database;
  await app.prisma.$executeRawUnsafe(
    target.provider === 'sqlite' ? 'DROP TABLE "Order"' : `DROP TABLE "${target.schema}"."Order" CASCADE`,
  );
  const { body } = await app.graphql(`{ orders { edges { node { id } } } }`);
  const [error] = body.errors ?? [];
  expect(error?.extensions).toEqual({ code: 'INTERNAL', status: 500 });
  expect(error?.message).toBe('Unexpected error.');
  expect(JSON.stringify(body)).not.toMatch(/SELECT|Order"|stack|at \w+ \(/);
});
