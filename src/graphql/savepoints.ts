import type { GraphQLFieldResolver } from 'graphql';
import type { Context } from './context.ts';

/**
 * A mutation field's resolver run in a savepoint of the request's held transaction, when it has one (a write
 * sent with an Idempotency-Key): a field that fails undoes its own writes, as it would in a transaction of its
 * own, and the fields that succeeded commit together with the record of the response. The field sees the
 * savepoint's client as `prisma`, on a context that inherits the rest from the request's.
 */
export function inSavepoint<Args>(
  resolve: GraphQLFieldResolver<unknown, Context, Args>,
): GraphQLFieldResolver<unknown, Context, Args> {
  return (root, args, context, info) =>
    context.transaction
      ? context.transaction.savepoint(async (prisma) =>
          resolve(root, args, Object.assign(Object.create(context), { prisma }), info),
        )
      : resolve(root, args, context, info);
}
