import { apiError } from '../contract/errors.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../contract/limits.ts';

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../contract/limits.ts';

const INT64_MAX = 2n ** 63n - 1n;
// What Pothos writes for a record with a bigint id, in base64: its namespace, the bigint tag, the id.
const ISSUED_CURSOR = /^GPC:I:([1-9]\d{0,18})$/;

/**
 * Refuses a cursor this API did not issue (the base64 of `GPC:I:<id>`, for an id from 1 to 2^63-1), naming
 * the argument or parameter it came in. Pothos would decode any of its tags (numbers, strings, JSON objects),
 * and the database then fail on them.
 */
export function checkCursor(name: string, cursor: string): void {
  const decoded = Buffer.from(cursor, 'base64');
  const id = ISSUED_CURSOR.exec(decoded.toString('latin1'))?.[1];
  const issued = id !== undefined && BigInt(id) <= INT64_MAX && decoded.toString('base64') === cursor;
  if (!issued) {
    throw apiError('cursorNotIssued', { field: name });
  }
}

/**
 * Page-size options for connections, which also check the cursors before Pothos decodes them. Pothos would
 * silently clamp `first: 500` to the maximum; a client that asked for more than it can get is told so instead.
 * `first` with `last` is refused, as Relay's connection spec recommends: Pothos would answer some slice of it
 * without saying which.
 */
export const paging = {
  defaultSize: DEFAULT_PAGE_SIZE,
  // Pothos asks for the maximum before it reads the cursor: the one hook it offers ahead of that.
  maxSize: (args: {
    first?: number | null;
    last?: number | null;
    after?: string | null;
    before?: string | null;
  }) => {
    if (args.first != null && args.last != null) {
      throw apiError('firstWithLast');
    }
    for (const name of ['first', 'last'] as const) {
      const size = args[name];
      if (size != null && (size < 0 || size > MAX_PAGE_SIZE)) {
        throw apiError('pageSizeOutOfRange', { field: name, size });
      }
    }
    for (const name of ['after', 'before'] as const) {
      const cursor = args[name];
      if (cursor != null) checkCursor(name, cursor);
    }
    return MAX_PAGE_SIZE;
  },
};
