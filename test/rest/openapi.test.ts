import { Validator } from '@seriousme/openapi-schema-validator';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PETS_BY_ID_DEPRECATION, petsByIdDeprecation } from '../../src/contract/pets-by-id.ts';
import { buildSchema } from '../../src/graphql/schema.ts';
import { checkRoute } from '../../src/rest/check-route.ts';
import { createOpenApiDocument } from '../../src/rest/openapi.ts';
import type { Route } from '../../src/rest/route.ts';
import { ROUTES } from '../../src/rest/routes.ts';

const schema = buildSchema();
const document = createOpenApiDocument({
  schema,
  petsById: petsByIdDeprecation(DEFAULT_PETS_BY_ID_DEPRECATION),
});
type Operation = {
  tags: string[];
  deprecated?: boolean;
  security: unknown[];
  responses: Record<string, { description?: string; headers?: Record<string, { $ref: string }> }>;
  [extension: `x-${string}`]: unknown;
};
const operation = (method: string, path: string) =>
  (document.paths[path] as Record<string, Operation> | undefined)?.[method.toLowerCase()];

// The contract's REST table, written out independently of the route table.
const CONTRACT = [
  'GET /pets',
  'POST /pets',
  'GET /pets/{petId}',
  'PUT /pets/{petId}',
  'PATCH /pets/{petId}',
  'DELETE /pets/{petId}',
  'GET /categories',
  'POST /categories',
  'GET /categories/{categoryId}',
  'PUT /categories/{categoryId}',
  'PATCH /categories/{categoryId}',
  'DELETE /categories/{categoryId}',
  'GET /store/orders',
  'POST /store/orders',
  'GET /store/orders/{orderId}',
  'PATCH /store/orders/{orderId}',
  'DELETE /store/orders/{orderId}',
  'GET /store/inventory',
  'GET /store/inventory/{petId}',
  'PUT /store/inventory/{petId}',
];

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.0.3 document, version 1.0.0', async () => {
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.0.3');
    expect(document.info.version).toBe('1.0.0');
    expect(document.tags.map((tag) => tag.name)).toEqual(['Pets', 'Store']);
  });

  it("has exactly the contract's operations, each tagged Pets or Store", () => {
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual([...CONTRACT].sort());
    for (const entry of CONTRACT) {
      const [method, path] = entry.split(' ') as [string, string];
      expect(['Pets', 'Store']).toContain(operation(method, path)?.tags[0]);
    }
  });

  it('documents 429 with Retry-After, and the rate-limit headers on every response', () => {
    for (const entry of CONTRACT) {
      const [method, path] = entry.split(' ') as [string, string];
      const { responses } = operation(method, path) as Operation;
      expect(responses['429']?.headers?.['Retry-After'], entry).toBeDefined();
      for (const [status, response] of Object.entries(responses)) {
        expect(Object.keys(response.headers ?? {}), `${entry} ${status}`).toEqual(
          expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
        );
      }
    }
  });

  it('documents 503 UNAVAILABLE with Retry-After on every operation: any may meet a stalled dependency or a stop', () => {
    for (const entry of CONTRACT) {
      const [method, path] = entry.split(' ') as [string, string];
      const unavailable = (operation(method, path) as Operation).responses['503'];
      expect(unavailable?.headers?.['Retry-After'], entry).toBeDefined();
      expect(unavailable?.description, entry).toMatch(/`UNAVAILABLE`: .*did not answer in time.*stopping/);
    }
  });

  it('lets anyone read and asks writes for the X-API-Key scheme', () => {
    expect(document.components.securitySchemes.ApiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
    });
    expect(operation('GET', '/pets')?.security).toEqual([{}, { ApiKey: [] }]);
    expect(operation('POST', '/pets')?.security).toEqual([{ ApiKey: [] }]);
    expect(operation('PUT', '/store/inventory/{petId}')?.responses['401']).toBeDefined();
  });

  it('takes an Idempotency-Key on every write, with its 409, 422 and Idempotent-Replayed, and on no read', () => {
    const { parameters } = document.components;
    expect(parameters.IdempotencyKey).toMatchObject({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
    for (const entry of CONTRACT) {
      const [method, path] = entry.split(' ') as [string, string];
      const { parameters: taken, responses } = operation(method, path) as Operation & {
        parameters: { $ref?: string }[];
      };
      const takesKey = taken.some(({ $ref }) => $ref === '#/components/parameters/IdempotencyKey');
      expect(takesKey, entry).toBe(method !== 'GET');
      if (method === 'GET') continue;
      expect(JSON.stringify(responses['409']), entry).toContain('IDEMPOTENCY_KEY_IN_USE');
      expect(JSON.stringify(responses['422']), entry).toContain('IDEMPOTENCY_KEY_REUSED');
      for (const [status, response] of Object.entries(responses)) {
        expect(Object.keys(response.headers ?? {}), `${entry} ${status}`).toContain('Idempotent-Replayed');
      }
    }
  });

  it('marks the deprecation, the hidden try-it panel and the stability of operations', () => {
    expect(operation('GET', '/pets/{petId}')).toMatchObject({
      deprecated: true,
      'x-sunset': '2027-07-01T00:00:00.000Z',
    });
    expect(operation('GET', '/pets/{petId}')?.responses['410']).toBeDefined();
    expect(operation('GET', '/store/orders')?.['x-hideTryItPanel']).toBe(true);
    expect(operation('GET', '/store/inventory')?.['x-stability']).toBe('beta');
    expect(operation('GET', '/store/inventory/{petId}')?.['x-stability']).toBe('beta');
    expect(operation('PUT', '/store/inventory/{petId}')?.['x-stability']).toBe('experimental');
    expect(operation('GET', '/pets')?.['x-stability']).toBeUndefined();
  });

  it('shapes the resources as the spec does, with int64 ids', () => {
    const { schemas } = document.components;
    expect(Object.keys(schemas.Pet.properties)).toEqual(['id', 'name', 'categoryId', 'status']);
    expect(schemas.Pet.properties.id).toMatchObject({ type: 'integer', format: 'int64' });
    expect(schemas.Pet.required).toEqual(['id', 'name', 'categoryId']);
    expect(Object.keys(schemas.Order.properties)).toEqual([
      'id',
      'petId',
      'quantity',
      'shipDate',
      'complete',
    ]);
    expect(schemas.InventoryItem.required).toEqual(['petId', 'quantity', 'status']);
    expect(schemas.Error.required).toEqual(['code', 'message', 'status']);
    expect(schemas.PetStatus.enum).toEqual(['available', 'pending', 'sold']);
  });
});

describe('the start-up check of the route table', () => {
  it('passes every route, and fails a route whose operation would drop a parameter', () => {
    for (const route of ROUTES) expect(() => checkRoute(schema, route)).not.toThrow();
    const listPets = ROUTES.find((route) => route.operationId === 'listPets') as Route;
    const dropsIds = {
      ...listPets,
      document: parse(
        'query($limit: Int, $cursor: String) { pets(first: $limit, after: $cursor) { edges { cursor } } }',
      ),
    };
    expect(() => checkRoute(schema, dropsIds)).toThrow(/GET \/pets: its variables are/);
    const invalid = { ...listPets, document: parse('{ pets { nope } }') };
    expect(() => checkRoute(schema, invalid)).toThrow(/Cannot query field "nope"/);
  });
});

describe('the deprecation of pet(id:)', () => {
  it('carries the configured dates and names its successor', () => {
    const configured = buildSchema(
      petsByIdDeprecation({
        deprecatedAt: new Date('2030-01-02T00:00:00Z'),
        sunsetAt: new Date('2031-03-04T00:00:00Z'),
      }),
    );
    const reason = configured.getQueryType()?.getFields().pet?.deprecationReason;
    expect(reason).toContain('2030-01-02');
    expect(reason).toContain('2031-03-04');
    expect(reason).toContain('GET /pets?ids={petId}');
    expect(schema.getQueryType()?.getFields().pet?.deprecationReason).toContain('2027-07-01');
  });
});
