import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDocuments } from '../../src/documents/repository.ts';
import { printSchemaSorted, SCHEMA_FILE } from '../../src/graphql/print.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';

const current = printSchemaSorted();
// The released schema had a field, an argument, an enum value and a type that the code no longer builds: each
// is a removal the check must judge against what clients registered.
const released = current
  .replace(/^type Pet \{\n/m, 'type Pet {\n  nickname: String\n')
  .replace(/^type Query \{\n/m, 'type Query {\n  petOfTheDay(day: Int): Pet\n')
  .concat('\ntype Review {\n  stars: Int!\n}\n');
const NICKNAME = 'query Nicknames { pets(first: 2) { edges { node { id nickname } } } }';
const PET_OF_THE_DAY = 'query PetOfTheDay { petOfTheDay(day: 3) { name } }';
const NAMES = 'query Names { pets(first: 2) { edges { node { name } } } }';

let database: TestDatabase;
let dir: string;
beforeAll(async () => {
  database = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'schema-check-'));
  await writeFile(path.join(dir, 'released.graphql'), released);
});
afterAll(async () => {
  await database.drop();
  await rm(dir, { recursive: true, force: true });
});

const check = (args: string[]) =>
  promisify(execFile)('npm', ['run', '--silent', 'schema:check', '--', ...args], {
    env: { ...process.env, DATABASE_URL: database.url },
  }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout + error.stderr,
    }),
  );

describe('npm run schema:check', () => {
  it('passes with warnings when the removals break no registered document', async () => {
    await addDocuments(database.db.prisma, [NAMES]);
    const { code, stdout } = await check(['--against', path.join(dir, 'released.graphql')]);
    expect(stdout).toContain(
      "Field 'nickname' was removed from object type 'Pet' (non-breaking based on usage)",
    );
    expect(stdout).toContain("Type 'Review' was removed");
    expect(stdout).toContain('1 registered documents checked: passed.');
    expect(code).toBe(0);
  });

  it('fails naming the document when a removal breaks a registered one, from the database or a file', async () => {
    await addDocuments(database.db.prisma, [NICKNAME]);
    await writeFile(path.join(dir, 'client.graphql'), PET_OF_THE_DAY);
    const { code, stdout } = await check([
      '--against',
      path.join(dir, 'released.graphql'),
      '--documents',
      path.join(dir, 'client.graphql'),
    ]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/Breaking, used by registered documents \(2\):/);
    expect(stdout).toMatch(
      /Field 'nickname' was removed from object type 'Pet'\n\s+used by sha256:\w+ \(Nicknames\)/,
    );
    expect(stdout).toMatch(
      /Field 'petOfTheDay' was removed from object type 'Query'\n\s+used by sha256:\w+ \(PetOfTheDay\)/,
    );
    expect(stdout).toContain('Cannot query field "nickname" on type "Pet"');
    expect(stdout).toContain('3 registered documents checked: FAILED.');
  });

  it('finds no change between the code and schema.graphql, which CI checks against the main branch', async () => {
    const { code, stdout } = await check(['--against', SCHEMA_FILE]);
    expect(stdout).toContain('No change to the schema');
    expect(code).toBe(0);
  });

  it('refuses an unknown option with exit status 2', async () => {
    const { code, stdout } = await check(['--againts', 'x']);
    expect(code).toBe(2);
    expect(stdout).toContain("Unknown option '--againts'");
  });
});
