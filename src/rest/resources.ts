import { ERROR_STATUS } from '../contract/errors.ts';
import { DEMO_CATEGORIES, DEMO_PETS, DEMO_STOCK } from '../store/demo-catalogue.ts';

/** The subset of OpenAPI 3.0 Schema Objects that the resources use. */
export interface SchemaObject {
  $ref?: string;
  type?: 'object' | 'array' | 'string' | 'integer' | 'boolean';
  pattern?: string;
  oneOf?: SchemaObject[];
  format?: 'int64' | 'date-time';
  description?: string;
  enum?: readonly (string | number)[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  default?: unknown;
  nullable?: boolean;
  example?: unknown;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  additionalProperties?: boolean;
  items?: SchemaObject;
  allOf?: SchemaObject[];
}

export const ref = (name: string): SchemaObject => ({ $ref: `#/components/schemas/${name}` });

const int64 = (description: string): SchemaObject => ({
  type: 'integer',
  format: 'int64',
  description: `${description} A JSON number; beyond 2^53 the digits in responses are still exact.`,
});
const text = (description: string): SchemaObject => ({ type: 'string', description });
const object = (description: string, properties: Record<string, SchemaObject>, required: string[] = []) => ({
  type: 'object' as const,
  description,
  properties,
  ...(required.length > 0 && { required }),
  additionalProperties: false,
});

// The examples are rows of the demo catalogue that a first start seeds (without them /docs shows `"id": 0`).
const [rex, bella] = DEMO_PETS as [(typeof DEMO_PETS)[number], (typeof DEMO_PETS)[number]];
const [dogs] = DEMO_CATEGORIES as [(typeof DEMO_CATEGORIES)[number]];

/**
 * JSON Schemas of the spec's resources as the REST operations answer them; the bodies they take are written from
 * the schema's input types (body-schemas.ts). Responses leave out fields without a value (a category without
 * description, an order without ship date) rather than send null.
 */
export const RESOURCES = {
  PetStatus: {
    type: 'string',
    enum: ['available', 'pending', 'sold'],
    description: 'Status of a pet or of an inventory entry.',
  },
  Pet: {
    ...object(
      'An animal in the store.',
      {
        id: int64('Unique identifier assigned on creation.'),
        name: { ...text("The animal's name."), example: 'Rex' },
        categoryId: int64('Identifier of the category the animal belongs to.'),
        status: ref('PetStatus'),
      },
      ['id', 'name', 'categoryId'],
    ),
    example: rex,
  },
  Pets: { type: 'array', items: ref('Pet'), description: 'A list of pets.', example: [rex, bella] },
  Category: {
    ...object(
      'A category of animals.',
      {
        id: int64('Unique identifier assigned on creation.'),
        name: { ...text('Category name, e.g. a kind of animal.'), example: 'Dogs' },
        description: text('Short description of the category.'),
      },
      ['id', 'name'],
    ),
    example: dogs,
  },
  Order: {
    ...object('An order for an animal. Placing it takes its quantity from stock.', {
      id: int64('Unique order identifier.'),
      petId: int64(
        'Identifier of the animal ordered (left out once a pet with completed orders was deleted).',
      ),
      quantity: { type: 'integer', description: 'Number of units ordered.' },
      shipDate: {
        type: 'string',
        format: 'date-time',
        description: 'Expected or actual ship date (ISO 8601).',
      },
      complete: {
        type: 'boolean',
        description: 'Whether the order has been fulfilled. Completion is final.',
      },
    }),
    // The demo catalogue has no orders: the first one a client would place, for Rex.
    example: { id: 1, petId: rex.id, quantity: 1, shipDate: '2026-12-01T10:00:00.000Z', complete: false },
  },
  InventoryItem: {
    ...object(
      'Stock of one pet. Status: available while quantity > 0; at 0, pending while open orders exist, else sold.',
      {
        petId: int64('Identifier of the animal the entry tracks.'),
        quantity: { type: 'integer', minimum: 0, description: 'Current stock count.' },
        status: ref('PetStatus'),
      },
      ['petId', 'quantity', 'status'],
    ),
    example: { petId: rex.id, quantity: DEMO_STOCK[0], status: 'available' },
  },
  Error: object(
    'The body of every error response.',
    {
      code: { type: 'string', enum: Object.keys(ERROR_STATUS), description: 'Machine-readable error code.' },
      message: { type: 'string', description: 'What was wrong and how to fix it; names the field at fault.' },
      status: { type: 'integer', description: 'The HTTP status code of the response.' },
    },
    ['code', 'message', 'status'],
  ),
} satisfies Record<string, SchemaObject>;

export type ResourceName = keyof typeof RESOURCES;

/** The GraphQL selection that yields a resource: its fields have the same names in both APIs. */
export const selectionOf = (name: 'Pet' | 'Category' | 'Order' | 'InventoryItem') =>
  Object.keys(RESOURCES[name].properties).join(' ');
