import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

// Every kind of "Did you mean …?" graphql-js writes, by where it is found: validation of the document (fields,
// arguments, types, enum literals, input fields) and coercion of the variables (enum values, input fields).
const MISTAKES: { kind: string; query: string; variables?: Record<string, unknown> }[] = [
  { kind: 'field', query: '{ petz(first: 1) { edges { cursor } } }' },
  { kind: 'argument', query: '{ pets(frist: 1) { edges { cursor } } }' },
  { kind: 'type', query: 'query ($s: PetStatuss) { pets(first: 1) { edges { cursor } } }' },
  { kind: 'fragment type', query: '{ pets(first: 1) { edges { node { ... on Pett { id } } } } }' },
  { kind: 'enum literal', query: '{ pets(first: 1, status: availble) { edges { cursor } } }' },
  {
    kind: 'input field literal',
    query: 'mutation { createCategory(input: { nmae: "x" }) { id } }',
  },
  {
    kind: 'enum value in a variable',
    query: 'query ($s: PetStatus) { pets(first: 1, status: $s) { edges { cursor } } }',
    variables: { s: 'availble' },
  },
  {
    kind: 'input field in a variable',
    query: 'mutation ($input: NewCategory!) { createCategory(input: $input) { id } }',
    variables: { input: { name: 'x', descriptoin: 'y' } },
  },
];

let development: TestApp;
let production: TestApp;
beforeAll(async () => {
  [development, production] = await Promise.all([
    startTestApp(),
    startTestApp({ env: { NODE_ENV: 'production', LOG_LEVEL: 'silent' } }),
  ]);
});
afterAll(() => Promise.all([development?.close(), production?.close()]));

const messagesOf = async (app: TestApp, query: string, variables?: Record<string, unknown>) =>
  ((await app.graphql(query, variables)).body.errors ?? []).map((error) => error.message);

describe.each(MISTAKES)('a misspelt $kind', ({ query, variables }) => {
  it('gets a suggestion in development', async () => {
    const messages = await messagesOf(development, query, variables);
    expect(messages.join('\n')).toMatch(/Did you mean/);
  });

  it('gets none in production: the error says what is wrong, and no more', async () => {
    const messages = await messagesOf(production, query, variables);
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) {
      expect(message).not.toMatch(/did you mean|suggestion/i);
      expect(message).toMatch(/\S[.!]?$/);
    }
  });
});

describe('REST in production', () => {
  it('suggests no enum value for a misspelt query parameter', async () => {
    const response = await production.fetch(`/pets?status=availble`);
    const body = await response.json();
    expect(body).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect(body.message).not.toMatch(/did you mean/i);
  });

  it('suggests no field for a misspelt body field', async () => {
    const { body } = await production.post('/categories', { name: 'x', descriptoin: 'y' });
    expect(body).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect(body.message).not.toMatch(/did you mean/i);
    expect(await production.count('category')).toBe(0);
  });
});
