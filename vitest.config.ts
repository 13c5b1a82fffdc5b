import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

// `*.db.test.ts` files run twice, once per database provider (TEST_DB); other tests run once. Each project
// `extends` this root config, which would otherwise not apply to it (timeouts, resolve).
export default defineConfig({
  // One `graphql` module for all: Vite would otherwise load its ESM build for src/ while Node loads the CommonJS
  // one for Yoga and its executor, and `instanceof GraphQLError` in src/ would fail for the executor's errors.
  resolve: { alias: [{ find: /^graphql$/, replacement: createRequire(import.meta.url).resolve('graphql') }] },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['test/**/*.db.test.ts'],
          env: { TEST_DB: 'sqlite' },
        },
      },
      {
        extends: true,
        test: {
          name: 'postgresql',
          include: ['test/**/*.db.test.ts'],
          env: { TEST_DB: 'postgresql' },
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.db.test.ts'],
        },
      },
    ],
  },
});
