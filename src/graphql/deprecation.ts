import { MapperKind, mapSchema } from '@graphql-tools/utils';
import type { GraphQLSchema } from 'graphql';
import type { PetsByIdDeprecation } from '../contract/pets-by-id.ts';

/**
 * The schema with `Query.pet` deprecated as configured rather than on the default dates it was built with, and
 * answering ENDPOINT_SUNSET (410) after the sunset, as REST does, instead of running its resolver.
 */
export function withPetsByIdDeprecation(
  schema: GraphQLSchema,
  deprecation: PetsByIdDeprecation,
): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.QUERY_ROOT_FIELD]: (field, name) => {
      if (name !== 'pet') return field;
      const { resolve } = field;
      return {
        ...field,
        deprecationReason: deprecation.reason,
        resolve: (...args) => {
          if (deprecation.isSunset()) throw deprecation.sunsetError('GraphQL');
          return resolve?.(...args);
        },
      };
    },
  });
}
