import { GraphQLDeferDirective, GraphQLStreamDirective } from '@graphql-tools/utils';
import { specifiedDirectives } from 'graphql';
import {
  DEFAULT_PETS_BY_ID_DEPRECATION,
  type PetsByIdDeprecation,
  petsByIdDeprecation,
} from '../contract/pets-by-id.ts';
import { builder } from './builder.ts';
import './types/pet.ts';
import './types/category.ts';
import './types/order.ts';
import './types/inventory.ts';
import './types/rate-limit.ts';
import './types/keys.ts';
import './types/usage.ts';
import './types/subscriptions.ts';

/** The schema with the configured deprecation dates; the defaults are what schema.graphql shows. */
export function buildSchema(
  petsById: PetsByIdDeprecation = petsByIdDeprecation(DEFAULT_PETS_BY_ID_DEPRECATION),
) {
  // @defer and @stream are part of the schema (and of schema.graphql), not added by Yoga's plugin at start.
  return builder.toSchema({
    sortSchema: true,
    deprecations: { petsById },
    directives: [...specifiedDirectives, GraphQLDeferDirective, GraphQLStreamDirective],
  });
}
