import { ERROR_STATUS } from '../contract/errors.ts';
import { INT64_RULE, INT64_TEXT } from '../contract/int64.ts';
import { DEMO_CATEGORIES, DEMO_PETS, DEMO_STOCK } from '../store/demo-catalogue.ts';
import { MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, MAX_QUANTITY } from '../store/validate.ts';

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
/** An int64 a client sends: the one rule of both APIs (contract/int64.ts), a number or a string of digits. */
const int64Input = (description: string): SchemaObject => ({
  description: `${description} An int64: ${INT64_RULE}.`,
  oneOf: [
    {
      type: 'integer',
      format: 'int64',
      minimum: -Number.MAX_SAFE_INTEGER,
      maximum: Number.MAX_SAFE_INTEGER,
      example: 1,
    },
    { type: 'string', format: 'int64', pattern: INT64_TEXT.source, example: '9007199254740993' },
  ],
});
const name = (description: string, example: string): SchemaObject => ({
  type: 'string',
  minLength: 1,
  maxLength: MAX_NAME_LENGTH,
  description: `${description} One line: no control characters (U+0000-U+001F, U+007F-U+009F).`,
  example,
});
const object = (description: string, properties: Record<string, SchemaObject>, required: string[] = []) => ({
  type: 'object' as const,
  description,
  properties,
  ...(required.length > 0 && { required }),
  additionalProperties: false,
});

const NewPet = object(
  'A pet to create; status defaults to available. Unknown fields are refused.',
  {
    name: name("The animal's name.", 'Rex'),
    categoryId: int64Input('Identifier of the category the animal belongs to.'),
    status: ref('PetStatus'),
  },
  ['name', 'categoryId'],
);

const NewCategory = object(
  'A category to create. Unknown fields are refused.',
  {
    name: name('Category name, e.g. a kind of animal.', 'Dogs'),
    description: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_DESCRIPTION_LENGTH,
      description:
        'Short description of the category. Line breaks and tabs are kept; other control characters are refused.',
    },
  },
  ['name'],
);

// The examples are rows of the demo catalogue that a first start seeds (without them /docs shows `"id": 0`).
const [rex, bella] = DEMO_PETS as [(typeof DEMO_PETS)[number], (typeof DEMO_PETS)[number]];
const [dogs] = DEMO_CATEGORIES as [(typeof DEMO_CATEGORIES)[number]];

/**
 * JSON Schemas of the spec's resources, plus the request bodies the REST operations take. Responses leave out
 * fields without a value (a category without description, an order without ship date) rather than send null.
 */
export const RESOURCES = {
  PetStatus: {
    type: 'string',
    enum: ['available', 'pending', 'sold'],
    description: 'Status of a pet or of an inventory entry.',
  },
  NewPet,
  Pet: {
    ...object(
      'An animal in the store.',
      {
        id: int64('Unique identifier assigned on creation.'),
        ...NewPet.properties,
        categoryId: int64('Identifier of the category the animal belongs to.'),
      },
      ['id', ...(NewPet.required ?? [])],
    ),
    example: rex,
  },
  Pets: { type: 'array', items: ref('Pet'), description: 'A list of pets.', example: [rex, bella] },
  PetPatch: object('Changes to a pet: fields left out stay as they are.', NewPet.properties),
  NewCategory,
  Category: {
    ...object(
      'A category of animals.',
      { id: int64('Unique identifier assigned on creation.'), ...NewCategory.properties },
      ['id', ...(NewCategory.required ?? [])],
    ),
    example: dogs,
  },
  CategoryPatch: object(
    'Changes to a category: fields left out stay as they are; a null description removes it.',
    {
      ...NewCategory.properties,
      description: { ...NewCategory.properties.description, nullable: true },
    },
  ),
  Order: {
    ...object('An order for an animal. Placing it takes its quantity from stock.', {
      id: int64('Unique order identifier.'),
      petId: int64(
        'Identifier of the animal ordered (left out once a pet with completed orders was deleted).',
      ),
      quantity: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_QUANTITY,
        description: 'Number of units ordered.',
      },
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
  NewOrder: object(
    'An order to place. Unknown fields are refused.',
    {
      petId: int64Input('Identifier of the animal to order.'),
      quantity: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_QUANTITY,
        default: 1,
        description: 'Number of units; taken from stock.',
      },
      shipDate: { type: 'string', format: 'date-time', description: 'Expected ship date (ISO 8601).' },
    },
    ['petId'],
  ),
  OrderPatch: object('Changes to an order: a new ship date (null removes it), or completion (final).', {
    shipDate: {
      type: 'string',
      format: 'date-time',
      nullable: true,
      description: 'Expected or actual ship date.',
    },
    complete: {
      type: 'boolean',
      description: 'true completes the order; a complete order cannot be reopened.',
    },
  }),
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
  InventoryUpdate: object(
    'The new stock count of a pet. Unknown fields are refused.',
    { quantity: { type: 'integer', minimum: 0, maximum: MAX_QUANTITY, description: 'The new stock count.' } },
    ['quantity'],
  ),
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
