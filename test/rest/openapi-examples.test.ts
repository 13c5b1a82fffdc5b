// Every error response of the OpenAPI document shows an example of its own status, with a code that status
// carries (the /docs page renders these; without them Swagger UI shows VALIDATION_FAILED for every status).
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { expect, it } from 'vitest';
import { ERROR_STATUS, type ErrorCode } from '../../src/contract/errors.ts';
import { DEFAULT_PETS_BY_ID_DEPRECATION, petsByIdDeprecation } from '../../src/contract/pets-by-id.ts';
import { buildSchema } from '../../src/graphql/schema.ts';
import { createOpenApiDocument } from '../../src/rest/openapi.ts';

const document = createOpenApiDocument({
  schema: buildSchema(),
  petsById: petsByIdDeprecation(DEFAULT_PETS_BY_ID_DEPRECATION),
});

interface ErrorBody {
  code: ErrorCode;
  message: string;
  status: number;
}
interface MediaType {
  schema: { allOf: [unknown, { properties: { code: { enum: string[] } } }] };
  example?: ErrorBody;
  examples?: Record<string, { value: ErrorBody }>;
}

const errorResponses = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(
    item as Record<string, { responses: Record<string, { content?: Record<string, MediaType> }> }>,
  ).flatMap(([method, operation]) =>
    Object.entries(operation.responses)
      .filter(([status]) => Number(status) >= 400)
      .map(([status, response]) => ({
        where: `${method.toUpperCase()} ${path} ${status}`,
        status: Number(status),
        media: response.content?.['application/json'] as MediaType,
      })),
  ),
);

const ajv = new Ajv({ strict: false });
addFormats(ajv);
ajv.addSchema(document, 'openapi.json');

it('covers every operation', () => {
  expect(errorResponses.length).toBeGreaterThan(100);
});

it.each(errorResponses)(
  '$where: one example per code the status carries, each valid',
  ({ status, media, where }) => {
    const examples = media.examples
      ? Object.entries(media.examples).map(([name, { value }]) => ({ name, value }))
      : [{ name: media.example?.code, value: media.example }];
    const codes = media.schema.allOf[1].properties.code.enum;
    // Every code this response documents has its example, and no other.
    expect(examples.map(({ value }) => value?.code).sort(), where).toEqual([...codes].sort());
    const validate = ajv.compile({ allOf: media.schema.allOf.map((part) => fix(part)) });
    for (const { name, value } of examples) {
      expect(value?.code, where).toBe(name);
      expect(value?.status, where).toBe(status);
      expect(ERROR_STATUS[value?.code as ErrorCode], where).toBe(status);
      expect(value?.message.length, where).toBeGreaterThan(0);
      expect(validate(value), `${where} ${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
  },
);

/** A `$ref` of the document, resolved against the document added to ajv. */
function fix(part: unknown): unknown {
  const ref = (part as { $ref?: string }).$ref;
  return ref ? { $ref: `openapi.json${ref}` } : part;
}

const withExamples = Object.entries(document.components.schemas as Record<string, { example?: unknown }>)
  .filter(([, schema]) => schema.example !== undefined)
  .map(([name, schema]) => ({ name, example: schema.example }));

it('gives the resources examples (what /docs shows for their ids instead of 0)', () => {
  expect(withExamples.map(({ name }) => name).sort()).toEqual(
    ['Category', 'InventoryItem', 'Order', 'Pet', 'Pets'].sort(),
  );
});

it.each(withExamples)('the example of $name is valid against its schema', ({ name, example }) => {
  const validate = ajv.compile({ $ref: `openapi.json#/components/schemas/${name}` });
  expect(validate(example), ajv.errorsText(validate.errors)).toBe(true);
});
