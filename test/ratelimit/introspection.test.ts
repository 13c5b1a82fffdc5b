import { randomUUID } from 'node:crypto';
import { getIntrospectionQuery } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Answer, useTestApp } from '../support/app.ts';
import { useGatewayProcess } from '../support/gateway-process.ts';
import { overHttp, requestHelpers } from '../support/requests.ts';

// Introspection-only operations (GraphiQL's schema loads) have a budget of their own per caller, beside the
// plan's: the explorer keeps working once the anonymous quota is spent. The browser side is
// test/browser/graphiql-quota.test.ts.

const INTROSPECTION = getIntrospectionQuery({ inputValueDeprecation: true, schemaDescription: true });

/** A GraphQL GET of `query` through `via`'s helpers, without a key unless given. */
const get = (
  via: Pick<ReturnType<typeof requestHelpers>, 'get'>,
  query: string,
  { operationName, key = null }: { operationName?: string; key?: string | null } = {},
) => {
  const search = new URLSearchParams({ query, ...(operationName && { operationName }) });
  return via.get(`/graphql?${search}`, { key, headers: { accept: 'application/graphql-response+json' } });
};

const budgetOf = (response: Pick<Answer, 'status' | 'headers'>) => ({
  status: response.status,
  budget: response.headers.get('x-ratelimit-budget'),
  limit: response.headers.get('x-ratelimit-limit'),
  remaining: response.headers.get('x-ratelimit-remaining'),
});

describe('the introspection budget, in one gateway', () => {
  const app = useTestApp({
    env: { RATE_LIMIT_PLANS: '{"free":{"perMinute":2}}', RATE_LIMIT_INTROSPECTION_PER_MINUTE: '4' },
  });
  beforeAll(async () => {
    // The anonymous caller (this address) spends its plan's budget.
    expect((await app.fetch('/pets')).status).toBe(200);
    expect((await app.fetch('/pets')).status).toBe(200);
    expect((await app.fetch('/pets')).status).toBe(429);
  });

  it('answers introspection-only GETs from their own budget, and says so, until that is spent too', async () => {
    const full = await get(app, INTROSPECTION, { operationName: 'IntrospectionQuery' });
    expect(budgetOf(full)).toEqual({ status: 200, budget: 'introspection', limit: '4', remaining: '3' });
    expect(full.body.data.__schema.queryType.name).toBe('Query');
    expect(full.headers.get('ratelimit-policy')).toMatch(
      /^"introspection-minute";q=4;w=60, "introspection-day"/,
    );

    // Every root field a meta field, in any operation the request names.
    expect(budgetOf(await get(app, '{ __typename }'))).toMatchObject({ status: 200, remaining: '2' });
    const named =
      'query Pets { categories(first: 1) { edges { cursor } } } query Type { __type(name: "Pet") { name } __typename }';
    expect(budgetOf(await get(app, named, { operationName: 'Type' }))).toMatchObject({
      status: 200,
      budget: 'introspection',
      remaining: '1',
    });
    expect(budgetOf(await get(app, INTROSPECTION))).toMatchObject({ status: 200, remaining: '0' });

    const refused = await get(app, '{ __schema { queryType { name } } }');
    expect(budgetOf(refused)).toEqual({ status: 429, budget: 'introspection', limit: '4', remaining: '0' });
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.body.errors[0]).toMatchObject({
      message: expect.stringMatching(/4 introspection-only requests \(schema loads\) per minute/),
      extensions: { code: 'RATE_LIMITED', status: 429 },
    });
  });

  it('charges anything else to the plan: data beside the schema, fragments at the root, POSTs, bad text', async () => {
    for (const [what, response] of [
      [
        'a data field beside __typename',
        await get(app, '{ __typename categories(first: 1) { edges { cursor } } }'),
      ],
      ['a fragment at the root', await get(app, '{ ...Root } fragment Root on Query { __typename }')],
      [
        'another operation than the one named',
        await get(app, 'query A { __typename } query B { categories(first: 1) { edges { cursor } } }', {
          operationName: 'B',
        }),
      ],
      ['no operation named', await get(app, 'query A { __typename } query B { __typename }')],
      ['text that does not parse', await get(app, '{ __schema { ')],
      [
        'a POST, counted before its body is read',
        await app.postGraphQL({ query: '{ __typename }' }, { key: null }),
      ],
    ] as const) {
      expect(budgetOf(response), what).toMatchObject({
        status: 429,
        budget: 'plan',
        limit: '2',
        remaining: '0',
      });
    }
  });

  it("keeps a key holder's introspection budget apart from the address's", async () => {
    const response = await get(app, '{ __typename }', { key: app.apiKey });
    expect(budgetOf(response)).toEqual({ status: 200, budget: 'introspection', limit: '4', remaining: '3' });
    const plan = await app.get('/pets?limit=1');
    expect(budgetOf(plan)).toMatchObject({ status: 200, budget: 'plan', limit: '1000' });
  });
});

describe.each([
  { store: 'Redis', env: { REDIS_URL: 'redis://127.0.0.1:6379' } },
  { store: "the primary's memory", env: {} as Record<string, string> },
])('the introspection budget, exact with WORKERS=2 counting in $store', ({ env }) => {
  const gateway = useGatewayProcess({
    WORKERS: '2',
    ...env,
    RATE_LIMIT_REDIS_PREFIX: `test-introspection-${randomUUID()}`,
    RATE_LIMIT_PLANS: '{"free":{"perMinute":3}}',
    RATE_LIMIT_INTROSPECTION_PER_MINUTE: '7',
    SEED_DEMO_DATA: 'false',
  });
  beforeAll(() =>
    gateway.logLine(() => gateway.lines.filter((line) => line.msg === 'worker listening').length === 2),
  );

  it('admits exactly the budget of 40 concurrent schema loads, and leaves the plan untouched', async () => {
    const responses = await Promise.all(
      Array.from({ length: 40 }, () => get(requestHelpers(overHttp(gateway.url)), INTROSPECTION)),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(7);
    expect(statuses.filter((status) => status === 429)).toHaveLength(33);
    // Both workers answered: counting per worker could have admitted up to twice the budget.
    const pids = await Promise.all(
      responses.map(async (response) => {
        const id = response.headers.get('x-request-id');
        return (await gateway.logLine((line) => line.reqId === id)).pid;
      }),
    );
    expect(new Set(pids).size).toBe(2);
    const plan = await overHttp(gateway.url)('/pets?limit=1');
    expect(budgetOf(plan)).toMatchObject({ status: 200, budget: 'plan', limit: '3', remaining: '2' });
  });
});
