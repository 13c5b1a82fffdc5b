import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import { apiError, notFound } from '../contract/errors.ts';
import { toInt64 } from '../contract/int64.ts';
import { findUniqueTogether, type ManyReader } from '../db/read-together.ts';
import { builder } from './builder.ts';
import type { Context } from './context.ts';

/**
 * The key of every entity this subgraph serves (`@key(fields: "id")`): its Int64 id, which a router sends back
 * as it was written, a JSON number or, beyond 2^53, a string of digits.
 */
export const ID_KEY = builder.selection<{ id: number | string }>('id');

/**
 * The row a router's representation names, with what the router's selection of its type reads (relations
 * included). Every representation of a type in one `_entities` call has the same selection, so they are read
 * together, in one statement (db/read-together.ts). One that names no row, or one the caller may not see
 * (`where`), fails alone with NOT_FOUND, as `pet(id:)` and `order(id:)` do: routers then null that entity and
 * pass the reason on, where a bare null would reach users as a non-null field's error. An id that is not an
 * Int64 fails alone, VALIDATION_FAILED.
 */
export async function findEntity<Row>(
  reader: ManyReader<Row>,
  typeName: string,
  reference: { id: unknown },
  context: Context,
  info: GraphQLResolveInfo,
  where?: object,
): Promise<Row> {
  const id = toInt64(reference.id);
  if (id === undefined) {
    throw apiError('representationIdInvalid', { typeName, got: JSON.stringify(reference.id) ?? 'none' });
  }
  const query = queryFromInfo({ context, info, typeName });
  const row = await findUniqueTogether(reader, 'id', id, where ? { ...query, where } : query);
  if (row === null) throw notFound(typeName, id);
  return row;
}
