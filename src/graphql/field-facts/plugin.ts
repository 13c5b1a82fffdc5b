import { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import type { GraphQLFieldResolver } from 'graphql';
import type { Context } from '../context.ts';
import { inSavepoint } from '../savepoints.ts';
import { FACTS_EXTENSION, type FactOptions, factsFrom, type PothosFieldExtensions } from './facts.ts';

/**
 * Keeps each field's facts on the field as it is built, and wraps the resolvers they call for: a mutation field
 * runs in a savepoint of the request's held transaction; a dated deprecation carries its configured reason and
 * refuses after its sunset. The schema is final when built: nothing rewrites it afterwards.
 */
export class FieldFactsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>) {
    const facts = factsFrom(
      fieldConfig.pothosOptions as FactOptions,
      fieldConfig.extensions as PothosFieldExtensions | undefined,
    );
    return {
      ...fieldConfig,
      ...(facts.deprecation && { deprecationReason: this.options.deprecations[facts.deprecation].reason }),
      extensions: { ...fieldConfig.extensions, [FACTS_EXTENSION]: facts },
    };
  }

  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    const { deprecation } = fieldConfig.pothosOptions as FactOptions;
    if (deprecation) {
      const dated = this.options.deprecations[deprecation];
      const resolve = resolver;
      resolver = (...args) => {
        if (dated.isSunset()) throw dated.sunsetError();
        return resolve(...args);
      };
    }
    if (fieldConfig.kind === 'Mutation') {
      // The builder's context is the gateway's Context (builder.ts).
      return inSavepoint(resolver as GraphQLFieldResolver<unknown, Context, object>) as typeof resolver;
    }
    return resolver;
  }
}
