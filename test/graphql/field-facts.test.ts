import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { factsOf } from '../../src/graphql/field-facts/facts.ts';
import { buildSchema } from '../../src/graphql/schema.ts';

const root = resolve(import.meta.dirname, '../..');
const dir = join(root, 'test/.artifacts', `field-facts-${process.pid}`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Each fixture defines one field on the project's builder; only the type checker reads them.
const FIXTURES: Record<string, string> = {
  'mutation-without-scope': `builder.mutationField('noScope', (t) => t.boolean({ resolve: () => true }));`,
  'prisma-mutation-without-scope': `builder.mutationField('noScope', (t) =>
    t.prismaField({ type: 'Pet', nullable: true, resolve: (query, _root, _args, { prisma }) =>
      prisma.pet.findFirst(query) }));`,
  'prisma-mutation-with-scope': `builder.mutationField('scoped', (t) =>
    t.prismaField({ type: 'Pet', nullable: true, scope: 'orders', resolve: (query, _root, _args, { prisma }) =>
      prisma.pet.findFirst(query) }));`,
  'mutation-scoped-read': `builder.mutationField('readScope', (t) =>
    t.boolean({ scope: 'read', resolve: () => true }));`,
  'object-field-with-scope': `builder.objectType(builder.objectRef<{ a: boolean }>('A'), {
    fields: (t) => ({ a: t.exposeBoolean('a', { scope: 'admin' }) }),
  });`,
  'mutation-with-scope': `builder.mutationField('scoped', (t) =>
    t.boolean({ scope: 'catalog', fieldLimit: true, callerDependent: true, resolve: () => true }));`,
  'query-with-facts': `builder.queryField('mine', (t) =>
    t.boolean({ scope: 'admin', readsTables: ['Order'], resolve: () => true }));`,
  'query-reading-an-unknown-table': `builder.queryField('mine', (t) =>
    t.boolean({ readsTables: ['Orders'], resolve: () => true }));`,
};

it('makes a mutation field without a scope, and a misplaced or misspelled fact, a compile error', async () => {
  mkdirSync(dir, { recursive: true });
  for (const [name, code] of Object.entries(FIXTURES)) {
    writeFileSync(
      join(dir, `${name}.ts`),
      `import { builder } from '../../../src/graphql/builder.ts';\n${code}\n`,
    );
  }
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ extends: '../../../tsconfig.json', include: ['*.ts'] }),
  );
  const tsc = promisify(execFile)(join(root, 'node_modules/.bin/tsc'), ['-p', dir], { cwd: root });
  const output = await tsc.then(
    () => '',
    (error: { stdout: string }) => error.stdout,
  );
  const failed = (name: string) => output.split('\n').filter((line) => line.includes(`${name}.ts(`));
  expect(failed('mutation-without-scope').join('\n')).toMatch(/Property 'scope' is missing/);
  // TypeScript names another property of the options here; the same field with a scope compiles (below).
  expect(failed('prisma-mutation-without-scope')).not.toEqual([]);
  expect(failed('mutation-scoped-read').join('\n')).toMatch(/"read"/);
  expect(failed('object-field-with-scope').join('\n')).toMatch(/'scope' does not exist/);
  expect(failed('query-reading-an-unknown-table').join('\n')).toMatch(/"Orders"/);
  expect(failed('mutation-with-scope')).toEqual([]);
  expect(failed('prisma-mutation-with-scope')).toEqual([]);
  expect(failed('query-with-facts')).toEqual([]);
}, 120_000);

it("keeps every field's facts on the built schema, where the stages read them", () => {
  const schema = buildSchema();
  const mutations = Object.values(schema.getMutationType()?.getFields() ?? {});
  expect(mutations.length).toBeGreaterThan(0);
  for (const field of mutations) expect(factsOf(field).scope, field.name).not.toBe('read');
  const query = schema.getQueryType()?.getFields() ?? {};
  expect(factsOf(query.apiKeys as never)).toMatchObject({ scope: 'admin', callerDependent: true });
  expect(factsOf(query.pets as never)).toMatchObject({ scope: 'read', callerDependent: false });
  expect(factsOf(query.pet as never).deprecation).toBe('petsById');
  expect(factsOf(schema.getMutationType()?.getFields().placeOrder as never).fieldLimit).toBe(true);
});
