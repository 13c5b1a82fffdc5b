import Sqlite from 'better-sqlite3';
import {
  type GraphQLField,
  type GraphQLObjectType,
  getNamedType,
  isLeafType,
  isNonNullType,
  isObjectType,
  parse,
} from 'graphql';
import { beforeAll, expect, it } from 'vitest';
import { dependenciesOf } from '../../src/graphql/plugins/response-cache.ts';
import { buildSchema } from '../../src/graphql/schema.ts';
import { useTestApp } from '../support/app.ts';

const schema = buildSchema();

// The response cache keeps a result until a table its document depends on changes, and takes those tables from
// the schema (a Prisma object type reads its model's table; other fields declare theirs). Here every field of
// Query runs once, selecting all it can, and the tables its SQL named must be among those: a field that reads a
// table nobody declared fails here rather than serving a stale result.

// The cache off: every query executes, so that its SQL is seen.
let statements: string[] = [];
let tables: string[] = [];
/** An existing row's id per model, for root fields that need one. */
const sampleIds: Record<string, number> = {};

const app = useTestApp({ env: { RESPONSE_CACHE_ENTRIES: '0' }, onQuery: (sql) => statements.push(sql) });
beforeAll(async () => {
  const pet = await app.createPet({ name: 'Sample' });
  const { placeOrder } = await app.ok(
    'mutation($petId: Int64!) { updateInventory(petId: $petId, input: { quantity: 2 }) { quantity } placeOrder(input: { petId: $petId, quantity: 1 }) { id } }',
    { petId: pet.id },
  );
  Object.assign(sampleIds, {
    Pet: pet.id,
    InventoryItem: pet.id,
    Category: pet.categoryId,
    Order: placeOrder.id,
  });
  const { target } = app.database.db;
  if (target.provider !== 'sqlite') throw new Error('the response cache is SQLite only');
  const db = new Sqlite(target.file, { readonly: true });
  tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[];
  db.close();
});

/** Every field reachable from `type` within `depth` levels whose arguments may all be left out. */
function selectionOf(type: GraphQLObjectType, depth: number): string {
  const parts = Object.values(type.getFields()).flatMap((field) => {
    if (field.args.some((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined)) return [];
    const named = getNamedType(field.type);
    if (isLeafType(named)) return [field.name];
    if (depth === 0 || !isObjectType(named)) return [];
    return [`${field.name} { ${selectionOf(named, depth - 1)} }`];
  });
  return parts.length ? parts.join(' ') : '__typename';
}

function representativeQuery(field: GraphQLField<unknown, unknown>): string {
  const type = getNamedType(field.type);
  const required = field.args.filter((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined);
  const model = isObjectType(type) ? (type.extensions?.pothosPrismaModel as string | undefined) : undefined;
  const args = required.map((arg) => {
    const id = model && sampleIds[model];
    if (id === undefined)
      throw new Error(`no sample value for ${field.name}(${arg.name}:): add one to this test`);
    return `${arg.name}: ${id}`;
  });
  const selection = isObjectType(type) ? ` { ${selectionOf(type, 4)} }` : '';
  return `{ ${field.name}${args.length ? `(${args.join(', ')})` : ''}${selection} }`;
}

const tablesNamedIn = (sql: string[]) =>
  [
    ...new Set(sql.flatMap((text) => tables.filter((table) => new RegExp(`[\`"]${table}[\`"]`).test(text)))),
  ].sort();

it.each(Object.keys(schema.getQueryType()?.getFields() ?? {}))(
  'Query.%s reads only the tables the response cache takes its results to depend on',
  async (name) => {
    const field = schema.getQueryType()?.getFields()[name];
    if (!field) throw new Error(name);
    const query = representativeQuery(field);
    const dependencies = dependenciesOf(parse(query), schema);
    await app.ok('{ __typename }'); // the caller's key, looked up once and then kept by the rate-limit layer
    statements = [];
    await app.ok(query);
    // The usage counter's flush (once a second, src/usage/) is not the query's.
    const read = tablesNamedIn(statements.filter((sql) => !/[`"]UsageCount[`"]/.test(sql)));
    // Results that depend on the caller are never kept; what they read does not matter to the cache.
    if (dependencies === null) return;
    expect(read.length, query).toBeGreaterThan(0);
    if (dependencies !== 'all') expect(dependencies).toEqual(expect.arrayContaining(read));
  },
);

it('takes a pet with its category to depend on pets and categories only, and a field it cannot place on all', () => {
  const pet = parse(
    '{ pets(first: 1) { edges { node { name category { name } } } pageInfo { hasNextPage } } }',
  );
  expect(dependenciesOf(pet, schema)).toEqual(['Category', 'Pet']);
  expect(dependenciesOf(parse('{ inventory { edges { node { quantity status } } } }'), schema)).toEqual([
    'InventoryItem',
  ]);
  expect(dependenciesOf(parse('{ rateLimit { remaining } }'), schema)).toBeNull();
});
