import { getOperationAST } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PETS_BY_ID_DEPRECATION, petsByIdDeprecation } from '../../src/contract/pets-by-id.ts';
import { factsOf } from '../../src/graphql/field-facts/facts.ts';
import { buildSchema } from '../../src/graphql/schema.ts';
import { createOpenApiDocument } from '../../src/rest/openapi.ts';
import { rootFieldOf } from '../../src/rest/route.ts';
import { ROUTES } from '../../src/rest/routes.ts';

const schema = buildSchema();
const document = createOpenApiDocument({
  schema,
  petsById: petsByIdDeprecation(DEFAULT_PETS_BY_ID_DEPRECATION),
});

// The contract's scopes, written out independently of the schema.
const CATALOG = ['createPet', 'updatePet', 'deletePet', 'createCategory', 'updateCategory', 'deleteCategory'];
const EXPECTED: Record<string, string> = {
  ...Object.fromEntries(CATALOG.map((field) => [field, 'catalog'])),
  updateInventory: 'catalog',
  placeOrder: 'orders',
  updateOrder: 'orders',
  cancelOrder: 'orders',
};

describe('the OpenAPI document', () => {
  it("lists each operation's scope, the one the schema declares on the field it runs", () => {
    for (const route of ROUTES) {
      const documented = (document.paths[route.path] as Record<string, Record<string, unknown>>)[
        route.method.toLowerCase()
      ];
      const kind = getOperationAST(route.document)?.operation;
      const root = kind === 'mutation' ? schema.getMutationType() : schema.getQueryType();
      const field = root?.getFields()[rootFieldOf(route)];
      if (!field) throw new Error(`no root field ${rootFieldOf(route)}`);
      const declared = factsOf(field).scope;
      const where = `${route.method} ${route.path}`;
      expect(documented?.['x-required-scope'], where).toBe(declared);
      expect(declared, where).toBe(EXPECTED[rootFieldOf(route)] ?? 'read');
      if (route.method !== 'GET') {
        expect(documented?.description, where).toContain(`\`${declared}\` scope`);
        expect(Object.keys(documented?.responses as object), where).toContain('403');
      }
    }
  });
});
