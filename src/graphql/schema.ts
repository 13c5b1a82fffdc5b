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

/**
 * The schema with the configured deprecation dates; the defaults are what schema.graphql shows. As a federation
 * subgraph (FEDERATION=on, docs/federation.md) it adds `_service` and `_entities` for a router, and
 * subgraph.graphql is what `_service { sdl }` answers; otherwise the entities' `@key` marks stay out of sight.
 */
export function buildSchema(
  petsById: PetsByIdDeprecation = petsByIdDeprecation(DEFAULT_PETS_BY_ID_DEPRECATION),
  { federation = false }: { federation?: boolean } = {},
) {
  const options = {
    sortSchema: true,
    deprecations: { petsById },
    // @defer and @stream are part of the schema (and of schema.graphql), not added by Yoga's plugin at start.
    directives: [...specifiedDirectives, GraphQLDeferDirective, GraphQLStreamDirective],
  };
  // The federation directives named, rather than found by the plugin building the schema once more without
  // this build's options.
  return federation
    ? builder.toSubGraphSchema({ ...options, federationDirectives: ['@key'] })
    : builder.toSchema(options);
}
