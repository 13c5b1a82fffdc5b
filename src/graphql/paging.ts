import { invalid } from '../contract/errors.ts';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/**
 * Page-size options for connections. Pothos would silently clamp `first: 500` to the maximum; a client
 * that asked for more than it can get is told so instead.
 */
export const paging = {
  defaultSize: DEFAULT_PAGE_SIZE,
  maxSize: (args: { first?: number | null; last?: number | null }) => {
    for (const name of ['first', 'last'] as const) {
      const size = args[name];
      if (size != null && (size < 0 || size > MAX_PAGE_SIZE)) {
        throw invalid(name, `must be between 0 and ${MAX_PAGE_SIZE} (got ${size})`);
      }
    }
    return MAX_PAGE_SIZE;
  },
};
