import { parse } from 'graphql';
import { expect, it } from 'vitest';
import { cachePolicyOf } from '../../src/graphql/cache-policy.ts';
import { buildSchema } from '../../src/graphql/schema.ts';

// The subgraph's entity lookup (FEDERATION=on) finds orders by the caller's key: no answer of it is shared, and
// it reads the tables of the entities and of what their selection follows.
const schema = buildSchema(undefined, { federation: true });

it('never shares an _entities answer, whatever entity it asks for, and knows the tables it reads', () => {
  const pets = parse(
    `query($r: [_Any!]!) { _entities(representations: $r) { ... on Pet { name category { name } } } }`,
  );
  expect(cachePolicyOf(pets, schema)).toEqual({ scope: 'private', tables: ['Category', 'Order', 'Pet'] });
  const orders = parse(
    `query($r: [_Any!]!) { _entities(representations: $r) { ... on Order { quantity } } }`,
  );
  expect(cachePolicyOf(orders, schema).scope).toBe('private');
});

it('leaves the rest of the schema as it was: a page of pets is public, on its own tables', () => {
  const page = parse('{ pets(first: 2) { edges { node { name category { name } } } } }');
  expect(cachePolicyOf(page, schema)).toEqual(cachePolicyOf(page, buildSchema()));
  expect(cachePolicyOf(page, schema)).toEqual({ scope: 'public', tables: ['Category', 'Pet'] });
});
