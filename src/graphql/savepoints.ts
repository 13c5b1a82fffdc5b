import { MapperKind, mapSchema } from '@graphql-tools/utils';
import { defaultFieldResolver, type GraphQLSchema } from 'graphql';
import type { Context } from './context.ts';

/**
 * The schema with each mutation field run in a savepoint of the request's held transaction, when it has one
 * (a write sent with an Idempotency-Key): a field that fails undoes its own writes, as it would in a transaction
 * of its own, and the fields that succeeded commit together with the record of the response. The field sees
 * the savepoint's client as `prisma`, on a context that inherits the rest from the request's.
 */
export function withSavepoints(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.MUTATION_ROOT_FIELD]: (field) => {
      const resolve = field.resolve ?? defaultFieldResolver;
      return {
        ...field,
        resolve: (root, args, context: Context, info) =>
          context.transaction
            ? context.transaction.savepoint(async (prisma) =>
                resolve(root, args, Object.assign(Object.create(context), { prisma }), info),
              )
            : resolve(root, args, context, info),
      };
    },
  });
}
