import { MapperKind, mapSchema } from '@graphql-tools/utils';
import type { GraphQLSchema } from 'graphql';
import type { PetsByIdDeprecation } from '../contract/pets-by-id.ts';

/**
 * The schema with `Query.pet` deprecated as configured rather than on the default dates it was built with.
 * Answering ENDPOINT_SUNSET after the sunset, as REST does, would wrap the field's resolver here.
 */
export function withPetsByIdDeprecation(
  schema: GraphQLSchema,
  deprecation: PetsByIdDeprecation,
): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.QUERY_ROOT_FIELD]: (field, name) =>
      name === 'pet' ? { ...field, deprecationReason: deprecation.reason } : field,
  });
}
