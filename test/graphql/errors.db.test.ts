import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

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
