import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_VARIABLE_DEPTH } from '../../src/graphql/plugins/nesting-depth.ts';
import { useTestApp } from '../support/app.ts';
import { collectingLogger } from '../support/log-lines.ts';

// The gateway's log lines: bad input is the client's fault, never logged as the server's (warn or error).
const { logger, lines: logLines } = collectingLogger<{ level: number; msg?: string }>();

let petId: number;
let categoryId: number;
const app = useTestApp({ logger });
beforeAll(async () => {
  ({ id: petId, categoryId } = await app.createPet({ name: 'Rex' }));
  await app.createPet({ name: 'Fido', categoryId });
});

/** What the store holds: changed by nothing this file refuses. */
const snapshot = async () =>
  JSON.stringify(
    {
      pets: await app.prisma.pet.findMany({ orderBy: { id: 'asc' } }),
      categories: await app.prisma.category.findMany({ orderBy: { id: 'asc' } }),
    },
    (_key, value) => (typeof value === 'bigint' ? String(value) : value),
  );

// C0 controls (NUL, BEL, ESC, the last), DEL and C1 controls (NEL, the last), and a lone UTF-16 surrogate.
const CONTROLS = ['\u0000', '\u0001', '\u0007', '\u001b', '\u001f', '\u007f', '\u0085', '\u009f'];
const REFUSED_IN_ANY_TEXT = [...CONTROLS, '\ud800', '\udc00'];
// A name is one line; a description may have several.
const LINE_BREAKS = ['\t', '\n', '\r'];

describe('text fields refuse control characters and lone surrogates, on both APIs', () => {
  const writes = (bad: string) => [
    {
      field: 'name',
      graphql: ['mutation($n: String!) { createCategory(input: { name: $n }) { id } }', { n: `A${bad}B` }],
      rest: ['POST', '/categories', { name: `A${bad}B` }],
    },
    {
      field: 'description',
      graphql: [
        'mutation($d: String) { createCategory(input: { name: "Ok", description: $d }) { id } }',
        { d: `A${bad}B` },
      ],
      rest: ['POST', '/categories', { name: 'Ok', description: `A${bad}B` }],
    },
    {
      field: 'description',
      graphql: [
        'mutation($id: Int64!, $d: String) { updateCategory(id: $id, input: { description: $d }) { id } }',
        { id: categoryId, d: `${bad}x` },
      ],
      rest: ['PATCH', `/categories/${categoryId}`, { description: `${bad}x` }],
    },
    {
      field: 'name',
      graphql: [
        'mutation($c: Int64!, $n: String!) { createPet(input: { categoryId: $c, name: $n }) { id } }',
        { c: categoryId, n: `x${bad}` },
      ],
      rest: ['POST', '/pets', { categoryId, name: `x${bad}` }],
    },
    {
      field: 'name',
      graphql: [
        'mutation($id: Int64!, $n: String) { updatePet(id: $id, input: { name: $n }) { id } }',
        { id: petId, n: `R${bad}ex` },
      ],
      rest: ['PUT', `/pets/${petId}`, { categoryId, name: `R${bad}ex` }],
    },
  ];

  it.each(REFUSED_IN_ANY_TEXT.map((bad) => [JSON.stringify(bad), bad]))(
    '%s: 400 VALIDATION_FAILED naming the field, nothing stored',
    async (_shown, bad) => {
      const before = await snapshot();
      for (const write of writes(bad)) {
        const [query, variables] = write.graphql as [string, Record<string, unknown>];
        const refusal = await app.fails(query, variables);
        expect(refusal, query).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
        expect(refusal.message, query).toMatch(new RegExp(`^${write.field}: must`));

        const [method, path, body] = write.rest as [string, string, unknown];
        const answer = await app.send(method, path, { body });
        expect(answer, `${method} ${path}`).toMatchObject({
          status: 400,
          body: {
            code: 'VALIDATION_FAILED',
            status: 400,
            message: expect.stringMatching(`^${write.field}: must`),
          },
        });
      }
      expect(await snapshot()).toBe(before);
    },
  );

  it('names the character and where it is', async () => {
    const refusal = await app.fails('mutation { createCategory(input: { name: "ab\\u0000c" }) { id } }');
    expect(refusal.message).toBe('name: must not contain control characters (found U+0000 at position 2)');
  });

  it('refuses tab and line breaks in a name', async () => {
    const before = await snapshot();
    for (const bad of LINE_BREAKS) {
      const answer = await app.send('POST', '/categories', { body: { name: `Two${bad}lines` } });
      expect(answer.body, JSON.stringify(bad)).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    }
    expect(await snapshot()).toBe(before);
  });

  it('keeps tab and line breaks inside a description, and any printable text anywhere', async () => {
    const description = 'Line one\r\n\tLine two\nNicht übel 🐕 ‮';
    const created = await app.send('POST', '/categories', { body: { name: 'Hunde 🐕 «ok»', description } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Hunde 🐕 «ok»', description });
    expect(await app.send('DELETE', `/categories/${created.body.id}`)).toMatchObject({ status: 204 });
  });
});

describe('paging cursors the gateway did not issue are 400 naming the argument', () => {
  const base64 = (text: string) => Buffer.from(text).toString('base64');
  const FORGED = [
    ['empty', ''],
    ['not base64', '!!!'],
    ['base64 of nothing ours', base64('hello')],
    ['an id past int64', base64('GPC:I:9223372036854775808')],
    ['an id of twenty digits', base64('GPC:I:99999999999999999999')],
    ['a negative id', base64('GPC:I:-1')],
    ['id zero', base64('GPC:I:0')],
    ['a leading zero', base64('GPC:I:01')],
    ['a non-numeric id', base64('GPC:I:abc')],
    ['a number tag', base64('GPC:N:1e400')],
    ['a fraction', base64('GPC:N:1.5')],
    ['a string tag', base64('GPC:S:1')],
    ['a JSON object', base64('GPC:O:{"id":1}')],
    ['a JSON tag', base64('GPC:J:{"a":{"b":1}}')],
    ['a date tag', base64('GPC:D:1')],
    ['a trailing NUL', base64('GPC:I:1\u0000')],
    ['unpadded base64', base64('GPC:I:1').replace(/=+$/, '')],
    ['base64url', base64('GPC:I:1>?').replaceAll('+', '-').replaceAll('/', '_')],
  ] as const;
  const CONNECTIONS = [
    (arg: string) => `{ pets(first: 1, ${arg}) { edges { cursor } } }`,
    (arg: string) => `{ categories(first: 1, ${arg}) { edges { cursor } } }`,
    (arg: string) => `{ orders(first: 1, ${arg}) { edges { cursor } } }`,
    (arg: string) => `{ inventory(first: 1, ${arg}) { edges { cursor } } }`,
    (arg: string) =>
      `query($id: Int64!) { category(id: $id) { pets(first: 1, ${arg}) { edges { cursor } } } }`,
  ];

  it.each(FORGED)('%s', async (_name, cursor) => {
    for (const connection of CONNECTIONS) {
      for (const argument of ['after', 'before']) {
        const query = connection(`${argument}: ${JSON.stringify(cursor)}`).replace(
          'first: 1, before',
          'last: 1, before',
        );
        const refusal = await app.fails(query, query.includes('$id') ? { id: categoryId } : undefined);
        expect(refusal, query).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
        expect(refusal.message, query).toMatch(new RegExp(`^${argument}: is not a cursor from this API`));
      }
    }
    for (const path of ['/pets', '/categories', '/store/orders', '/store/inventory']) {
      const answer = await app.send('GET', `${path}?cursor=${encodeURIComponent(cursor)}`);
      expect(answer, path).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', status: 400 } });
      expect(answer.body.message, path).toMatch(/^cursor: is not a cursor from this API/);
    }
  });

  it('still takes the cursors it issues, on both APIs', async () => {
    const first = await app.ok('{ pets(first: 1) { edges { cursor node { id } } pageInfo { endCursor } } }');
    const cursor = first.pets.pageInfo.endCursor as string;
    const next = await app.ok('query($c: String) { pets(first: 1, after: $c) { edges { node { name } } } }', {
      c: cursor,
    });
    expect(next.pets.edges).toEqual([{ node: { name: 'Fido' } }]);
    const page = await app.send('GET', `/pets?limit=1&cursor=${encodeURIComponent(cursor)}`);
    expect(page).toMatchObject({ status: 200, body: [{ name: 'Fido' }] });
  });
});

describe(`variables nested deeper than ${MAX_VARIABLE_DEPTH} levels are refused up front (400)`, () => {
  const list = (depth: number) => {
    let value: unknown = 1;
    for (let level = 0; level < depth; level++) value = [value];
    return value;
  };
  const object = (depth: number) => {
    let value: unknown = 'x';
    for (let level = 0; level < depth; level++) value = { a: value };
    return value;
  };
  const REFUSAL = {
    errors: [
      {
        message: `variables: nested deeper than ${MAX_VARIABLE_DEPTH} levels`,
        extensions: { code: 'VALIDATION_FAILED', status: 400 },
      },
    ],
  };
  const READ = 'query($ids: [Int64!]) { pets(first: 1, ids: $ids) { edges { cursor } } }';
  const WRITE = 'mutation($input: NewCategory!) { createCategory(input: $input) { id } }';

  it.each([
    ['a list 3,000 deep', READ, () => ({ ids: list(3000) })],
    ['a list one level too deep', READ, () => ({ ids: list(MAX_VARIABLE_DEPTH) })],
    ['an object 3,000 deep', WRITE, () => ({ input: object(3000) })],
    ['an unused variable 3,000 deep', READ, () => ({ ids: [1], other: object(3000) })],
  ])('%s', async (_name, query, variables) => {
    const before = await snapshot();
    const answer = await app.graphql(query, variables());
    expect(answer.body).toEqual(REFUSAL);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(await snapshot()).toBe(before);
  });

  it('a list 30,000 deep, within the body limit', async () => {
    const deep = `${'['.repeat(30_000)}1${']'.repeat(30_000)}`;
    const answer = await app.postGraphQL(`{"query":${JSON.stringify(READ)},"variables":{"ids":${deep}}}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(REFUSAL);
  });

  it('refuses it in any entry of a batch, and in extensions', async () => {
    const batch = await app.postGraphQL([
      { query: '{ __typename }' },
      { query: READ, variables: { ids: list(3000) } },
    ]);
    expect(batch.status).toBe(400);
    expect(batch.body).toEqual(REFUSAL);
    const extensions = await app.postGraphQL({ query: '{ __typename }', extensions: object(3000) });
    expect(extensions.status).toBe(400);
    expect(extensions.body.errors[0].message).toBe(
      `extensions: nested deeper than ${MAX_VARIABLE_DEPTH} levels`,
    );
  });

  it('refuses a document nesting its brackets deeper than GRAPHQL_MAX_DEPTH + 34, before parsing it', async () => {
    const limit = 10 + MAX_VARIABLE_DEPTH + 2;
    const refusal = {
      errors: [
        {
          message: `Nesting depth of ${limit} brackets exceeded. Ask for less in one operation, or split it.`,
          extensions: { code: 'QUERY_TOO_COMPLEX', status: 400 },
        },
      ],
    };
    const listLiteral = (depth: number) =>
      `{ pets(first: 1, ids: ${'['.repeat(depth)}1${']'.repeat(depth)}) { edges { cursor } } }`;
    for (const query of [
      listLiteral(3000),
      listLiteral(limit),
      `mutation { createCategory(input: ${'{ name: '.repeat(600)}"x"${' }'.repeat(600)}) { id } }`,
      `{ ${'pets(first: 1) { edges { node { category { '.repeat(12)} id ${'} } } } '.repeat(12)} }`,
    ]) {
      const answer = await app.graphql(query);
      expect(answer.body, query.slice(0, 60)).toEqual(refusal);
      expect(answer.status).toBe(400);
    }
    const viaGet = await app.fetch(`/graphql?query=${encodeURIComponent(listLiteral(limit))}`);
    expect(viaGet.status).toBe(400);
    expect(await viaGet.json()).toEqual(refusal);
  });

  it('counts no bracket inside strings, block strings or comments', async () => {
    const brackets = '[{('.repeat(30);
    const quoted = await app.ok(
      `mutation {
        # ${brackets}
        createCategory(input: { name: "${brackets} \\" ${brackets}" }) { name }
      }`,
    );
    expect(quoted.createCategory.name).toBe(`${brackets} " ${brackets}`);
    const block = await app.ok(
      `mutation { createCategory(input: { name: """${brackets} \\""" ${brackets}""" }) { name } }`,
    );
    expect(block.createCategory.name).toBe(`${brackets} """ ${brackets}`);
    const answer = await app.graphql(
      `{ pets(first: 1, ids: ${'['.repeat(30)}1${']'.repeat(30)}) { edges { cursor } } }`,
    );
    expect(answer.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });

  it('passes the depth it allows on to the schema, which judges the value', async () => {
    const answer = await app.graphql(READ, { ids: list(MAX_VARIABLE_DEPTH - 1) });
    expect(answer.body.errors?.[0]?.message).toMatch(/^\$ids\[0\]: must be a whole number between -2\^63/);
  });

  it('refuses a deep REST body as a field of the wrong type', async () => {
    const answer = await app.send('POST', '/categories', { body: { name: list(3000) } });
    expect(answer).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', status: 400 } });
    expect(answer.body.message).toMatch(/^name: /);
  });
});

describe('the GraphQL endpoint answers refusals of the body with the Error object', () => {
  it('invalid JSON: 400, and nothing of the parser (originalError) in the answer', async () => {
    for (const accept of ['application/json', 'application/graphql-response+json', '*/*']) {
      const response = await app.fetch(`/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept },
        body: '{"query": "{ __typename }"',
      });
      expect(response.status, accept).toBe(400);
      expect(await response.json(), accept).toEqual({
        errors: [
          { message: 'POST body sent invalid JSON.', extensions: { code: 'VALIDATION_FAILED', status: 400 } },
        ],
      });
    }
  });

  it.each([
    ['GET', 'application/xml'],
    ['POST', 'image/png'],
    ['POST', 'text/html'],
  ])('%s accepting only %s: 406 with the Error object and the rate-limit headers', async (method, accept) => {
    const response = await app.send(
      method,
      `/graphql${method === 'GET' ? `?query=${encodeURIComponent('{ __typename }')}` : ''}`,
      { headers: { accept }, body: method === 'POST' ? '{"query":"{ __typename }"}' : undefined },
    );
    expect(response.status).toBe(406);
    expect(response.body).toMatchObject({
      errors: [
        { message: expect.stringMatching(/^Accept /), extensions: { code: 'NOT_ACCEPTABLE', status: 406 } },
      ],
    });
    expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  });

  it.each(['text/json', 'application/xml', 'image/png', 'application/jsonx'])(
    'a body of %s: 415 with the Error object and the rate-limit headers',
    async (type) => {
      const response = await app.postGraphQL('{"query":"{ __typename }"}', { contentType: type });
      expect(response.status).toBe(415);
      expect(response.body).toEqual({
        errors: [
          {
            message: `POST /graphql needs Content-Type: application/json (got ${JSON.stringify(type)})`,
            extensions: { code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 },
          },
        ],
      });
      expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    },
  );
});

it('logs none of this above info: no stack overflow, no server fault', () => {
  expect(logLines.length).toBeGreaterThan(100);
  expect(logLines.filter((line) => line.level >= 40)).toEqual([]);
  expect(JSON.stringify(logLines)).not.toMatch(/Maximum call stack|RangeError|Invalid cursor/);
});
