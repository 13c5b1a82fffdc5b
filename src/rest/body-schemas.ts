import {
  type GraphQLInputField,
  type GraphQLInputObjectType,
  type GraphQLSchema,
  getNamedType,
  isInputObjectType,
  isNonNullType,
} from 'graphql';
import { INT64_RULE, INT64_TEXT } from '../contract/int64.ts';
import { type FieldRule, ruleOf } from '../store/validate.ts';
import { ref, type SchemaObject } from './resources.ts';

/** The GraphQL input types the REST operations take as their JSON bodies (each body is the operation's `$input`). */
export const BODY_INPUTS = [
  'NewPet',
  'PetPatch',
  'NewCategory',
  'CategoryPatch',
  'NewOrder',
  'OrderPatch',
  'InventoryUpdate',
] as const;
export type BodyInput = (typeof BODY_INPUTS)[number];

/** What the reference page fills a body's fields with. */
const EXAMPLES: Record<string, unknown> = { 'NewPet.name': 'Rex', 'NewCategory.name': 'Dogs' };

/**
 * The JSON Schemas of the REST bodies, written from the schema's input types (fields, types, which are required,
 * where null is taken) and the store's rules (limits, defaults): documentation of the one rule that both APIs
 * apply (graphql/input-check.ts, then the store), never a second rule.
 */
export function bodySchemas(schema: GraphQLSchema): Record<BodyInput, SchemaObject> {
  const schemas = BODY_INPUTS.map((name) => {
    const type = schema.getType(name);
    if (!isInputObjectType(type)) throw new Error(`The schema has no input type ${name} for a REST body`);
    return [name, objectSchema(type)] as const;
  });
  return Object.fromEntries(schemas) as Record<BodyInput, SchemaObject>;
}

function objectSchema(type: GraphQLInputObjectType): SchemaObject {
  const fields = Object.values(type.getFields());
  const required = fields
    .filter((field) => isNonNullType(field.type) && field.defaultValue === undefined)
    .map((field) => field.name);
  return {
    type: 'object',
    description: [type.description, 'Unknown fields are refused.'].filter(Boolean).join(' '),
    properties: Object.fromEntries(fields.map((field) => [field.name, fieldSchema(type.name, field)])),
    ...(required.length > 0 && { required }),
    additionalProperties: false,
  };
}

function fieldSchema(typeName: string, field: GraphQLInputField): SchemaObject {
  const rule = ruleOf(typeName, field.name);
  const example = EXAMPLES[`${typeName}.${field.name}`];
  const named = getNamedType(field.type).name;
  const int64 = named === 'Int64' ? `An int64: ${INT64_RULE}.` : undefined;
  const description = [field.description, rule?.description, int64].filter(Boolean).join(' ');
  return {
    ...typeSchema(named, rule),
    ...(!isNonNullType(field.type) && { nullable: true }),
    ...(description && { description }),
    ...(example !== undefined && { example }),
  };
}

function typeSchema(name: string, rule: FieldRule | undefined): SchemaObject {
  switch (name) {
    case 'String':
      return rule?.kind === 'text'
        ? { type: 'string', minLength: 1, maxLength: rule.max }
        : { type: 'string' };
    case 'Int':
      return rule?.kind === 'quantity'
        ? {
            type: 'integer',
            minimum: rule.min,
            maximum: rule.max,
            ...(rule.default !== undefined && { default: rule.default }),
          }
        : { type: 'integer' };
    case 'Boolean':
      return { type: 'boolean' };
    case 'DateTime':
      return { type: 'string', format: 'date-time' };
    case 'Int64':
      return {
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
      };
    default:
      // An enum: the component of its name (PetStatus).
      return { allOf: [ref(name)] };
  }
}
