import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/graphql/schema.ts';
import { listDocuments, variablesFor } from './documents.ts';
import { BEYOND_2_53, startSeededTwins, type Twins } from './twins.ts';

const schema = buildSchema();
const cursorOf = (id: bigint | number) => Buffer.from(`GPC:I:${id}`).toString('base64');

let twins: Twins;
beforeAll(async () => {
  twins = await startSeededTwins();
}, 120_000);
afterAll(() => twins?.close());

describe('the planned list path answers byte for byte as the resolvers do (LIST_PLANS=off)', () => {
  it('for every list document of the test suite and the REST routes, for an admin key, an own-orders key and no key', async () => {
    const documents = listDocuments(schema);
    // The harvest must find the suite's documents, or this test would compare nothing.
    expect(documents.length).toBeGreaterThan(20);
    const firstPet = await twins.prisma.pet.findFirstOrThrow({ orderBy: { id: 'asc' } });
    let planned = 0;
    let runs = 0;
    for (const { source, from } of documents) {
      const document = parse(source);
      const variables = variablesFor(schema, document, Number(firstPet.id));
      const names = document.definitions.flatMap((d) =>
        d.kind === 'OperationDefinition' ? [d.name?.value] : [],
      );
      for (const operationName of names.length > 1 ? names : [undefined]) {
        for (const key of [twins.keys.admin, twins.keys.own, null]) {
          const { planned: a, resolved: b } = await twins.graphql(source, variables, key, operationName);
          expect(a, `${from}\n${source}\n${JSON.stringify(variables)}`).toEqual(b);
        }
        const { sql } = await twins.statementsOf(source, variables, operationName);
        runs++;
        if (sql.length === 1 && sql[0]?.includes('AS "json"')) planned++;
      }
    }
    // Most of them are answered by a plan (the rest fall back: by-id reads beside a list, refused arguments).
    expect(planned).toBeGreaterThan(runs / 2);
  }, 300_000);

  it('for the REST list routes, every page of them, their filters and their Link headers', async () => {
    const paths = [
      '/pets',
      '/pets?limit=7',
      '/pets?status=pending&limit=5',
      '/pets?categoryId=2&limit=3',
      `/pets?ids=1,2,3,${BEYOND_2_53},${BEYOND_2_53 + 2n}`,
      '/categories?limit=4',
      '/store/orders?limit=6',
      '/store/orders?complete=true',
      '/store/orders?petId=3',
      '/store/inventory?limit=9',
      '/store/inventory?status=sold',
      '/store/inventory?status=pending',
      '/store/inventory?status=available&limit=100',
      '/pets?limit=0',
      '/pets?limit=101',
      `/pets?cursor=${cursorOf(5)}`,
      '/pets?cursor=bm90IGEgY3Vyc29y',
    ];
    for (const key of [twins.keys.admin, twins.keys.own]) {
      for (const start of paths) {
        let path: string | undefined = start;
        for (let pages = 0; path && pages < 40; pages++) {
          const { planned, resolved } = await twins.both(path, key);
          expect(planned, path).toEqual(resolved);
          path = /<([^>]+)>; rel="next"/.exec(planned.headers)?.[1];
        }
      }
    }
  }, 300_000);

  it('walking every connection forward and backward to its ends, at every page size', async () => {
    const pageOf = (field: string, args: string) =>
      `{ ${field}(${args}) { edges { cursor node { ${NODE[field]} } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
    for (const field of Object.keys(NODE)) {
      for (const size of field === 'categories' ? [2, 30] : [3, 100]) {
        for (const [direction, cursorArg, cursorOf] of [
          ['first', 'after', 'endCursor'],
          ['last', 'before', 'startCursor'],
        ] as const) {
          let cursor: string | null = null;
          for (let pages = 0; pages < 200; pages++) {
            const args = `${direction}: ${size}${cursor ? `, ${cursorArg}: "${cursor}"` : ''}`;
            const { planned, resolved } = await twins.graphql(pageOf(field, args));
            expect(planned, `${field}(${args})`).toEqual(resolved);
            const info = JSON.parse(planned.body).data?.[field].pageInfo;
            expect(info, planned.body).toBeDefined();
            cursor = info[cursorOf];
            if (!cursor || !(direction === 'first' ? info.hasNextPage : info.hasPreviousPage)) break;
          }
        }
      }
    }
  }, 300_000);
});

const NODE: Record<string, string> = {
  pets: 'id name status categoryId category { id name description } inventory { petId quantity status }',
  categories:
    'id name description pets(first: 3) { edges { cursor node { id name } } pageInfo { hasNextPage endCursor } }',
  orders: 'id petId quantity shipDate complete pet { id name inventory { quantity status } }',
  inventory: 'petId quantity status pet { id name category { name } }',
};
