import { getArgumentValues } from 'graphql/execution/values.js';
import type { Caller } from '../../contract/caller.ts';
import type { Where } from '../field-facts/facts.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, paging } from '../paging.ts';
import type { ConnectionPlan } from './selection.ts';

/** One connection's arguments as this request gives them, in the terms the statement needs. */
export interface PageArguments {
  /** Rows on the page (`first` or `last`, or the default). */
  size: number;
  /** The id of the row the cursor names, when a cursor was given. */
  cursorId: bigint | undefined;
  after: boolean;
  before: boolean;
  /** Paging backward (`last` or `before`): the statement reads in descending order. */
  backward: boolean;
  where: Where;
}

/**
 * Reads each connection's arguments for this request's variables; undefined when any would be refused
 * (an out-of-range size, a cursor the API did not issue, `first` with `last`, …): the resolvers then answer,
 * with their Error object.
 */
export function pageArgumentsOf(
  connections: readonly ConnectionPlan[],
  variables: Record<string, unknown>,
  caller: Caller,
): PageArguments[] | undefined {
  const pages: PageArguments[] = [];
  for (const connection of connections) {
    try {
      const args = getArgumentValues(connection.field, connection.node, variables) as {
        first?: number | null;
        last?: number | null;
        after?: string | null;
        before?: string | null;
      };
      // The same checks, and in the same order, as the resolvers (paging.ts, then Pothos's).
      paging.maxSize(args);
      const { first, last, after, before } = args;
      if (after != null && before != null) return undefined;
      if (before != null && first != null) return undefined;
      if (after != null && last != null) return undefined;
      const cursor = after ?? before;
      const where = connection.listPlan.where?.(args as never, caller) ?? {};
      pages.push({
        size: Math.min(first ?? last ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
        cursorId:
          cursor == null ? undefined : BigInt(Buffer.from(cursor, 'base64').toString('latin1').slice(6)),
        after: after != null,
        before: before != null,
        backward: before != null || last != null,
        where,
      });
    } catch {
      return undefined;
    }
  }
  return pages;
}
