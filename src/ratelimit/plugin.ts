import { isPromise, type MaybePromise } from '@whatwg-node/promise-helpers';
import type { GraphQLResolveInfo } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { RateLimitConfig } from '../config/rate-limits.ts';
import type { Caller } from '../contract/caller.ts';
import { isGraphQLPath, MAX_BATCH_SIZE } from '../contract/endpoints.ts';
import { ApiError } from '../contract/errors.ts';
import { graphqlError } from '../contract/graphql-error.ts';
import type { Limits } from '../contract/plans.ts';
import type { ServerContext } from '../graphql/context.ts';
import type { KeyLookup } from '../keys/lookup.ts';
import type { ActiveKey } from '../keys/repository.ts';
import { andThen } from '../maybe-promise.ts';
import { clientIp } from './client-ip.ts';
import type { CounterStore, Log } from './counters.ts';
import { createFieldLimiter, type FieldLimiter } from './field-limit.ts';
import { setRateLimitHeaders } from './headers.ts';
import { createRateLimiter, type Decision, type RateLimiter, tightestWindow } from './limiter.ts';

export interface RateLimitPluginDeps {
  config: RateLimitConfig;
  counters: CounterStore;
  findKey: KeyLookup;
  log: Log;
}

/** One HTTP request's passage through the layer. */
interface Admission {
  caller: Caller;
  /** Whose counters: the key, or the client address for anonymous calls. */
  subject: string;
  limits: Limits;
  /** Points this request holds so far (a batch counts its first operation before the rest). */
  held: number;
  decision?: Decision;
  retryAfterSeconds?: number;
  limitField: FieldLimiter;
  limiter: RateLimiter;
}

type OnRequestParseDone = (payload: { requestParserResult: unknown }) => MaybePromise<void>;

// The request's passage, kept on the server context Yoga hands to every hook, which is also (or, in a
// batch, the prototype of) the GraphQL context the resolvers see. Not in a WeakMap keyed by the request's
// objects: V8's young-generation collector keeps such entries alive, so every request's admission was
// promoted to the old generation (a throw-away test: 100 MB or more of old space and six full collections
// for three million entries, against 3 MB and none as a property).
const ADMISSION = Symbol('rate-limit admission');
type Admitted = { [ADMISSION]?: Admission };

/**
 * The rate-limit layer, as the first plugin of the one Yoga instance that serves GraphQL and REST.
 * A REST request (any path but the GraphQL endpoint) counts one in `onRequest`, before the REST
 * plugin answers it. A GraphQL request counts one when Yoga starts parsing it (GraphiQL's page and
 * CORS preflights are answered earlier and not counted) and the rest of a batch once it is parsed,
 * before anything executes. Every response to a counted request carries the rate-limit headers.
 */
export function createRateLimitPlugin({
  config,
  counters,
  findKey,
  log,
}: RateLimitPluginDeps): Plugin<Record<string, never>, ServerContext> {
  const limiter = createRateLimiter(counters, config);
  const limitField = createFieldLimiter(counters, config);

  function lookUp(presented: string): MaybePromise<ActiveKey | null> {
    const key = findKey(presented);
    return isPromise(key) ? key.catch(keyLookupFailed) : key;
  }

  function keyLookupFailed(error: unknown): never {
    log.warn({ error: String(error) }, 'API key lookup failed');
    throw new ApiError('UNAVAILABLE', 'The API key cannot be checked right now; retry shortly');
  }

  function admissionOfKey(key: ActiveKey, ip: string): Admission {
    return {
      caller: { kind: 'key', keyId: key.id, plan: key.plan, ip },
      subject: `key:${key.id}`,
      limits: key.plan === 'enterprise' ? key.limits : config.plans[key.plan],
      held: 0,
      limitField,
      limiter,
    };
  }

  function anonymousAdmission(ip: string): Admission {
    return {
      caller: { kind: 'anonymous', ip },
      subject: `ip:${ip}`,
      limits: config.plans.free,
      held: 0,
      limitField,
      limiter,
    };
  }

  function count(admission: Admission, points: number): MaybePromise<void> {
    const decision = limiter.consume(admission.subject, admission.limits, points, admission.held);
    if (isPromise(decision)) {
      return decision.then((settled) => record(admission, points, settled), storeFailed);
    }
    record(admission, points, decision);
  }

  function record(admission: Admission, points: number, decision: Decision): void {
    admission.decision = decision;
    if (decision.admitted) {
      admission.held += points;
      return;
    }
    admission.held = 0;
    admission.retryAfterSeconds = decision.retryAfterSeconds;
    throw new ApiError(decision.code, refusalMessage(decision, admission.caller));
  }

  function storeFailed(error: unknown): never {
    log.warn({ error: String(error) }, 'rate-limit counters unavailable: refusing with 503');
    throw new ApiError('UNAVAILABLE', 'Rate limits cannot be checked right now; retry shortly');
  }

  /**
   * Identifies the caller and counts the request. A key that names no active key is refused, but the request
   * still counts against the client address, as an anonymous one would: its response carries that quota's
   * headers, and guessing keys is rate-limited like any other traffic.
   */
  function enter(request: Request, serverContext: ServerContext & Admitted): MaybePromise<void> {
    const ip = clientIp(request, serverContext.req?.socket.remoteAddress, config.trustProxyHops);
    const presented = request.headers.get('x-api-key');
    if (presented === null) return admit(serverContext, anonymousAdmission(ip));
    const key = lookUp(presented);
    if (isPromise(key)) return key.then((found) => admitKey(serverContext, found, ip));
    return admitKey(serverContext, key, ip);
  }

  function admitKey(
    serverContext: ServerContext & Admitted,
    key: ActiveKey | null,
    ip: string,
  ): MaybePromise<void> {
    if (key) return admit(serverContext, admissionOfKey(key, ip));
    return andThen(admit(serverContext, anonymousAdmission(ip)), () => {
      const message = 'X-API-Key names no active key: check the value, or ask for a new key';
      throw new ApiError('INVALID_API_KEY', message);
    });
  }

  function admit(serverContext: ServerContext & Admitted, admission: Admission): MaybePromise<void> {
    serverContext[ADMISSION] = admission;
    serverContext.caller = admission.caller;
    return count(admission, 1);
  }

  /** Counts the operations of a batched GraphQL request after its first, once it is parsed. */
  function countRestOfBatch(serverContext: object): OnRequestParseDone {
    return ({ requestParserResult: parsed }) => {
      // A batch Yoga is about to refuse runs nothing, so only its first count stands.
      if (!Array.isArray(parsed) || parsed.length < 2 || parsed.length > MAX_BATCH_SIZE) return;
      return andThen(count(admissionOf(serverContext), parsed.length - 1), () => {}, rethrowAsGraphQLError);
    };
  }

  return {
    onRequest({ request, serverContext, url, endResponse, fetchAPI }) {
      if (isGraphQLPath(url.pathname)) return;
      const refuse = (error: unknown) => {
        if (!(error instanceof ApiError)) throw error;
        endResponse(
          new fetchAPI.Response(JSON.stringify(error.toBody()), {
            status: error.status,
            headers: { 'Content-Type': 'application/json; charset=utf-8' },
          }),
        );
      };
      try {
        return andThen(enter(request, serverContext), () => {}, refuse);
      } catch (error) {
        refuse(error);
      }
    },

    // Refusals thrown while Yoga parses become GraphQL error responses with their HTTP status.
    onRequestParse({ request, serverContext }) {
      const hooks = { onRequestParseDone: countRestOfBatch(serverContext) };
      try {
        const entered = enter(request, serverContext);
        return isPromise(entered) ? entered.then(() => hooks, rethrowAsGraphQLError) : hooks;
      } catch (error) {
        rethrowAsGraphQLError(error);
      }
    },

    onResponse({ serverContext, response }) {
      const admission = (serverContext as Admitted)[ADMISSION];
      if (!admission?.decision) return;
      setRateLimitHeaders(response.headers, admission.decision.windows);
      if (admission.retryAfterSeconds !== undefined) {
        response.headers.set('Retry-After', String(admission.retryAfterSeconds));
      }
    },
  };
}

/** The caller's own state for the window with fewer requests left (GitHub-style `rateLimit` field). */
export function rateLimitOf(context: object): {
  limit: number;
  remaining: number;
  resetAt: Date;
} {
  const decision = admissionOf(context).decision;
  if (!decision) throw new Error('The rate-limit layer has not counted this request');
  const window = tightestWindow(decision.windows);
  return { limit: window.limit, remaining: window.remaining, resetAt: new Date(window.resetsAt) };
}

/**
 * Applies the per-field limit configured for `info.fieldName` (e.g. placeOrder) to the caller; call it
 * first in that field's resolver. When refused, the operation's point goes back to the caller's quota (a
 * refused request consumes nothing), and it throws RATE_LIMITED with HTTP status 429 and Retry-After.
 */
export async function limitField(
  context: object,
  info: GraphQLResolveInfo,
  args: Record<string, unknown>,
): Promise<void> {
  const admission = admissionOf(context);
  const refusal = await admission.limitField(admission.subject, info, args);
  if (!refusal) return;
  await admission.limiter.release(admission.subject, 1);
  for (const window of admission.decision?.windows ?? [])
    window.remaining = Math.min(window.limit, window.remaining + 1);
  admission.retryAfterSeconds = refusal.retryAfterSeconds;
  throw graphqlError('RATE_LIMITED', refusal.message, { httpStatus: true });
}

/** The admission of the request a server or GraphQL context belongs to. */
function admissionOf(context: object): Admission {
  const admission = (context as Admitted)[ADMISSION];
  if (!admission) throw new Error('This request did not pass through the rate-limit plugin');
  return admission;
}

function refusalMessage(decision: Extract<Decision, { admitted: false }>, caller: Caller): string {
  const wait = `retry in ${decision.retryAfterSeconds} s (Retry-After)`;
  if (decision.code === 'KEY_BANNED') {
    return `Temporarily banned for sending on while rate-limited: ${wait}, then back off exponentially after a 429`;
  }
  const { limit, policy } = decision.refusedBy;
  const who = caller.kind === 'key' ? 'this API key' : 'requests without an API key from this address';
  return `Rate limit exceeded: ${who} may make ${limit} requests per ${policy}; ${wait}`;
}

/** Yoga turns a GraphQLError thrown while parsing into a GraphQL error response with `http.status`. */
function rethrowAsGraphQLError(error: unknown): never {
  if (!(error instanceof ApiError)) throw error;
  throw graphqlError(error.code, error.message, { httpStatus: true });
}
