import { MapperKind, mapSchema } from '@graphql-tools/utils';
import type { GraphQLSchema } from 'graphql';
import { type Deprecation, petsByIdReason } from '../contract/pets-by-id.ts';

/** The schema with `Query.pet` deprecated on the configured dates rather than the defaults it was built with. */
export function withPetsByIdDeprecation(schema: GraphQLSchema, deprecation: Deprecation): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.QUERY_ROOT_FIELD]: (field, name) =>
      name === 'pet' ? { ...field, deprecationReason: petsByIdReason(deprecation) } : field,
  });
}
