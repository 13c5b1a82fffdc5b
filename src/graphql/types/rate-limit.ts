import type { Quota } from '../../contract/caller.ts';
import { builder } from '../builder.ts';

/**
 * GitHub-style `rateLimit { limit remaining resetAt }`: the caller's own quota for the window with fewer
 * requests left (the X-RateLimit-* values), after counting the request that asks.
 */
const RateLimitType = builder.objectRef<Quota>('RateLimit').implement({
  description:
    "The caller's quota in its tightest window (per minute or per day); an API key's, or the client address's without one.",
  fields: (t) => ({
    limit: t.exposeInt('limit', { description: 'Requests allowed in the window.' }),
    remaining: t.exposeInt('remaining', { description: 'Requests left in the window, this one counted.' }),
    resetAt: t.expose('resetAt', { type: 'DateTime', description: 'When the window resets.' }),
  }),
});

builder.queryField('rateLimit', (t) =>
  t.field({
    type: RateLimitType,
    description: 'Your own rate-limit state, as the X-RateLimit-* response headers give it.',
    // Each caller's own: the response cache never keeps a result that selects it.
    callerDependent: true,
    // Changes with every request (the quota) or with configuration: never kept, never revalidated.
    cache: 'no-store',
    resolve: (_root, _args, { quota }) => quota,
  }),
);
