import { describe, expect, it } from 'vitest';
import { type Answer, useTestApp } from '../support/app.ts';

// Small limits, so that each is reached by a short document.
const LIMITS = {
  GRAPHQL_MAX_BODY_BYTES: '1000',
  GRAPHQL_MAX_DEPTH: '4',
  GRAPHQL_MAX_COST: '35',
  GRAPHQL_MAX_ALIASES: '2',
  GRAPHQL_MAX_DIRECTIVES: '2',
  GRAPHQL_MAX_TOKENS: '60',
};

const app = useTestApp({ env: LIMITS });

/** The refusal: HTTP status, the Error object in the only error's extensions, and the rate-limit headers. */
function expectRefusal(answer: Answer, code: string, status: number, message: string) {
  expect(answer.body).toEqual({ errors: [{ message, extensions: { code, status } }] });
  expect(answer.status).toBe(status);
  for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    expect(answer.headers.get(header), header).toMatch(/^\d+$/);
  }
}

const tooComplex = (limit: string) => `${limit} Ask for less in one operation, or split it.`;

describe('request body size (GRAPHQL_MAX_BODY_BYTES)', () => {
  const TOO_LARGE = 'The body is larger than 1000 bytes; send less data per request';
  // A createCategory mutation padded with spaces to exactly `size` bytes.
  const mutationOfSize = (size: number) => {
    const body = JSON.stringify({ query: 'mutation { createCategory(input: { name: "Padded" }) { id } }' });
    return `${body.slice(0, -1)}${' '.repeat(size - body.length)}}`;
  };

  it('accepts a body of exactly the limit', async () => {
    const answer = await app.postGraphQL(mutationOfSize(1000));
    expect(answer.body.errors).toBeUndefined();
    expect(answer.status).toBe(200);
  });

  it('refuses a larger body from its Content-Length, 413 PAYLOAD_TOO_LARGE, and creates nothing', async () => {
    const before = await app.count('category');
    expectRefusal(await app.postGraphQL(mutationOfSize(1001)), 'PAYLOAD_TOO_LARGE', 413, TOO_LARGE);
    expect(await app.count('category')).toBe(before);
  });

  it('refuses a larger chunked body (no Content-Length) while it arrives, and creates nothing', async () => {
    const before = await app.count('category');
    const bytes = new TextEncoder().encode(mutationOfSize(1001));
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 600));
        controller.enqueue(bytes.slice(600));
        controller.close();
      },
    });
    expectRefusal(await app.postGraphQL(chunked), 'PAYLOAD_TOO_LARGE', 413, TOO_LARGE);
    expect(await app.count('category')).toBe(before);
  });
});

describe('GraphQL document limits', () => {
  it('accepts a document at the depth limit and refuses a deeper one with QUERY_TOO_COMPLEX', async () => {
    expect((await app.postGraphQL({ query: '{ categories { edges { node { name } } } }' })).status).toBe(200);
    expectRefusal(
      await app.postGraphQL({
        query: '{ categories { edges { node { pets { pageInfo { hasNextPage } } } } } }',
      }),
      'QUERY_TOO_COMPLEX',
      400,
      tooComplex('Query depth limit of 4 exceeded, found 6.'),
    );
  });

  it('refuses a mutation beyond a limit before it runs: nothing is created', async () => {
    const before = await app.count('category');
    expectRefusal(
      await app.postGraphQL({
        query:
          'mutation { a: createCategory(input: { name: "A" }) { id } b: createCategory(input: { name: "B" }) { id } c: createCategory(input: { name: "C" }) { id } }',
      }),
      'QUERY_TOO_COMPLEX',
      400,
      tooComplex('Aliases limit of 2 exceeded, found 3.'),
    );
    expect(await app.count('category')).toBe(before);
  });

  it.each([
    [
      'over the cost limit',
      '{ categories { edges { node { id name description } } } pets { edges { node { id name } } } }',
      'Query Cost limit of 35 exceeded, found 35.875.',
    ],
    [
      'with too many directives',
      '{ __typename @skip(if: false) pets @include(if: true) { pageInfo @skip(if: false) { hasNextPage } } }',
      'Directives limit of 2 exceeded, found 3.',
    ],
    [
      'with too many tokens, while parsing it',
      `{ ${'__typename '.repeat(60)}}`,
      'Token limit of 60 exceeded.',
    ],
  ])('refuses a document %s', async (_, query, limit) => {
    expectRefusal(await app.postGraphQL({ query }), 'QUERY_TOO_COMPLEX', 400, tooComplex(limit));
  });
});

describe('cross-site request forgery', () => {
  const REFUSED = (type: string) =>
    `POST /graphql needs Content-Type: application/json (got "${type}"); form and plain-text bodies are refused, as a page on another site could send them`;

  it.each([
    [
      'text/plain',
      JSON.stringify({ query: 'mutation { createCategory(input: { name: "Forged" }) { id } }' }),
    ],
    [
      'application/x-www-form-urlencoded',
      'query=mutation%20%7B%20createCategory(input%3A%20%7B%20name%3A%20%22Forged%22%20%7D)%20%7B%20id%20%7D%20%7D',
    ],
  ])(
    'refuses a POST a web page could send without a preflight (%s) with 415, and changes nothing',
    async (type, body) => {
      const before = await app.count('category');
      expectRefusal(
        await app.postGraphQL(body, { contentType: type }),
        'UNSUPPORTED_MEDIA_TYPE',
        415,
        REFUSED(type),
      );
      expect(await app.count('category')).toBe(before);
    },
  );

  it('refuses a multipart form POST', async () => {
    const form = new FormData();
    form.set('operations', JSON.stringify({ query: '{ __typename }' }));
    const response = await app.fetch(`/graphql`, { method: 'POST', body: form });
    expect(response.status).toBe(415);
    expect((await response.json()).errors[0].extensions).toEqual({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      status: 415,
    });
  });

  it('still answers queries sent with GET, as browsers and caches do', async () => {
    const response = await app.fetch(`/graphql?query=${encodeURIComponent('{ __typename }')}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { __typename: 'Query' } });
  });
});

describe('in production (NODE_ENV=production, default limits)', () => {
  const production = useTestApp({ env: { NODE_ENV: 'production', LOG_LEVEL: 'silent' } });

  it('does not suggest field names in validation errors (it does in development)', async () => {
    const misspelt = '{ petz(first: 1) { edges { cursor } } }';
    expect((await production.fails(misspelt)).message).toBe('Cannot query field "petz" on type "Query".');
    expect((await app.fails(misspelt)).message).toBe(
      'Cannot query field "petz" on type "Query". Did you mean "pet" or "pets"?',
    );
  });

  it('allows introspection, which the explorer needs', async () => {
    expect(await production.ok('{ __schema { queryType { name } } }')).toEqual({
      __schema: { queryType: { name: 'Query' } },
    });
  });

  it('caps page sizes at 100', async () => {
    const refusal = await production.fails('{ pets(first: 101) { edges { cursor } } }');
    expect(refusal).toEqual({
      message: 'first: must be between 0 and 100 (got 101)',
      code: 'VALIDATION_FAILED',
      status: 400,
    });
  });
});
