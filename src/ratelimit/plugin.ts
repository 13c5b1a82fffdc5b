import { isPromise, type MaybePromise } from '@whatwg-node/promise-helpers';
import type { Plugin } from 'graphql-yoga';
import type { RateLimitConfig } from '../config/rate-limits.ts';
import type { Caller, Quota } from '../contract/caller.ts';
import { isGraphQLPath, MAX_BATCH_SIZE } from '../contract/endpoints.ts';
import { completeYogaRefusal, errorResponse } from '../contract/error-response.ts';
import { ApiError, apiError } from '../contract/errors.ts';
import { toGraphQLError } from '../contract/graphql-error.ts';
import { notModified, type TagRequest, type Validator } from '../contract/http-caching.ts';
import type { KeyLookup } from '../keys/lookup.ts';
import { noteCaller } from '../observability/request-context.ts';
import { annotateRequestSpan, inSpan } from '../observability/tracing.ts';
import type { CounterStore, Log } from './counters/counter.ts';
import { createFieldLimiter } from './field-limits.ts';
import { setRateLimitHeaders } from './headers.ts';
import { createIdentify, type Identity } from './identify.ts';
import { isIntrospectionOnlyGet } from './introspection.ts';
import { createRateLimiter, type Windows } from './limiter.ts';
import { andThen } from './maybe-promise.ts';
import { type Counting, RequestQuota } from './quota.ts';
import { createSubscriptionLeases } from './subscription-leases.ts';

export interface RateLimitPluginDeps {
  config: RateLimitConfig;
  counters: CounterStore;
  findKey: KeyLookup;
  log: Log;
  /** Tags a GET's answer before it runs (HTTP caching): one that the client already has is answered 304, free. */
  tagRequest?: TagRequest;
}

/**
 * The server context Yoga hands to every hook, with what this layer adds. It is also (or, for the entries of a
 * batch, the prototype of) the GraphQL context: plain properties, read at once, allocated once per request.
 */
export interface RateLimitedContext {
  req?: { socket: { remoteAddress?: string | undefined } };
  caller?: Caller;
  quota?: Quota;
  /** The answer's validator, made before it ran: the HTTP caching stage sends it with a successful answer. */
  validator?: Validator;
}

/**
 * The rate-limit layer, as the first plugin of the one Yoga instance that serves GraphQL and REST.
 * A REST request (any path but the GraphQL endpoint) counts one in `onRequest`, before the REST
 * plugin answers it. A GraphQL request counts one when Yoga starts parsing it (GraphiQL's page and
 * CORS preflights are answered earlier and not counted) and the rest of a batch once it is parsed,
 * before anything executes. An introspection-only GraphQL GET (GraphiQL's schema load) is counted, at the same
 * point, in the caller's introspection budget instead of its plan's: its query is in the URL, so it is known
 * before any body is read. Every response to a counted request carries the rate-limit headers.
 */
export function createRateLimitPlugin<TServerContext extends RateLimitedContext = RateLimitedContext>(
  deps: RateLimitPluginDeps,
): Plugin<Record<string, never>, TServerContext> {
  return createRateLimitLayer<TServerContext>(deps).plugin;
}

/** A refusal answered before the API, as the rate limit has it: its error (the layer's own first) and headers. */
export interface CountedRefusal {
  error: ApiError;
  headers: Record<string, string>;
}

/**
 * The rate-limit layer: its Yoga plugin, and `countRefusal` for a request the pipeline refuses before Yoga can
 * read it (a malformed request target or Host). Such a request counts one, as any other: it carries the
 * rate-limit headers, and a caller over its limit (or with an unknown key) is told that first, as everywhere.
 */
export function createRateLimitLayer<TServerContext extends RateLimitedContext = RateLimitedContext>({
  config,
  counters,
  findKey,
  log,
  tagRequest,
}: RateLimitPluginDeps) {
  const identify = createIdentify({ config, findKey, log });
  // A tagged GraphQL GET is identified before Yoga parses it, and counted after.
  const identified = new WeakMap<Request, Identity>();
  const limitFields = createFieldLimiter(counters, config);
  const holdSubscription = createSubscriptionLeases(counters, config, log);
  const counting: Counting = { limiter: createRateLimiter(counters, config), limitFields, holdSubscription };
  const introspectionCounting: Counting = {
    limiter: createRateLimiter(counters, config, { budget: 'introspection' }),
    limitFields,
    holdSubscription,
  };
  // A day window is part of every budget; this one never binds before the minute's.
  const introspectionLimits = {
    perMinute: config.introspectionPerMinute,
    perDay: config.introspectionPerMinute * Math.ceil(config.daySeconds / config.minuteSeconds),
  };

  /** A refusal passes as it is; any other failure means the counters cannot be reached. */
  function unavailable(error: unknown): never {
    if (error instanceof ApiError) throw error;
    log.warn({ error: String(error) }, 'rate-limit counters unavailable: refusing with 503');
    throw apiError('rateLimitsUnavailable');
  }

  /** Runs a counting step; its failures (synchronous or not) come back as a rejected promise. */
  function counted<T>(step: () => MaybePromise<T>): MaybePromise<T> {
    try {
      const done = step();
      return isPromise(done) ? done.catch(unavailable) : done;
    } catch (error) {
      return Promise.reject(error).catch(unavailable);
    }
  }

  /** Identifies the caller and counts the request's first operation, in the plan's budget or introspection's. */
  function enter(
    request: Request,
    serverContext: RateLimitedContext,
    introspection = false,
    points = 1,
  ): MaybePromise<RequestQuota> {
    const known = identified.get(request);
    const identity = known ?? identify(request, serverContext.req?.socket.remoteAddress);
    return andThen(identity, (identity) => {
      const quota = introspection
        ? new RequestQuota(
            { ...identity, limits: introspectionLimits },
            introspectionCounting,
            'introspection',
          )
        : new RequestQuota(identity, counting);
      serverContext.caller = identity.caller;
      serverContext.quota = quota;
      const plan = identity.caller.kind === 'key' ? identity.caller.plan : 'anonymous';
      annotateRequestSpan({ 'petstore.plan': plan });
      return andThen(
        inSpan('rate limit', () => quota.pay(points), { 'petstore.plan': plan }),
        () => {
          if (!identity.keyRefused) return quota;
          throw apiError('invalidApiKey');
        },
      );
    });
  }

  /** Counts the operations of a batched GraphQL request after its first, once it is parsed. */
  const countRestOfBatch =
    (quota: RequestQuota) =>
    ({ requestParserResult: parsed }: { requestParserResult: unknown }) => {
      // A batch Yoga is about to refuse runs nothing, so only its first count stands.
      if (!Array.isArray(parsed) || parsed.length < 2 || parsed.length > MAX_BATCH_SIZE) return;
      return andThen(
        counted(() => quota.pay(parsed.length - 1)),
        noop,
        rethrowAsGraphQLError,
      );
    };

  async function countRefusal(
    request: Request,
    socketAddress: string | undefined,
    refusal: ApiError,
  ): Promise<CountedRefusal> {
    const serverContext: RateLimitedContext = { req: { socket: { remoteAddress: socketAddress } } };
    let error = refusal;
    try {
      await counted(() => enter(request, serverContext));
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      error = failure;
    }
    const headers = new Headers();
    const quota = serverContext.quota;
    if (quota instanceof RequestQuota && quota.decision) {
      setRateLimitHeaders(headers, quota.decision.windows);
      if (error.status === 429 && quota.retryAfterSeconds !== undefined) {
        headers.set('Retry-After', String(quota.retryAfterSeconds));
      }
    }
    return { error, headers: Object.fromEntries(headers) };
  }

  /**
   * Tags a GET's answer for its caller before anything runs. When the client's If-None-Match names the tag,
   * the request costs nothing (0 points read the windows, and a banned caller is still refused) and is answered
   * 304 at once; true then.
   */
  function revalidate(
    request: Request,
    url: URL,
    serverContext: RateLimitedContext,
  ): MaybePromise<boolean> | undefined {
    const tag = tagRequest?.(request, url);
    if (!tag) return undefined;
    const socketAddress = serverContext.req?.socket.remoteAddress;
    return andThen(
      counted(() => identify(request, socketAddress)),
      (identity): MaybePromise<boolean> => {
        identified.set(request, identity);
        // An unknown key is refused as always: nothing is answered for it.
        if (identity.keyRefused) return false;
        // A tag is read from the database: when it cannot be, the request is counted and answered the
        // database's 503 (with the rate-limit headers), not the rate limit's.
        return andThen(
          tagOrFailure(() => tag(identity.caller)),
          (validator) => {
            if (validator === TAG_FAILED) {
              return andThen(
                counted(() => enter(request, serverContext)),
                () => {
                  throw apiError('databaseUnavailable');
                },
              );
            }
            serverContext.validator = validator;
            if (!validator || !notModified(request.headers.get('if-none-match'), validator.tag)) return false;
            return andThen(
              counted(() => enter(request, serverContext, false, 0)),
              () => true,
            );
          },
        );
      },
    );
  }

  const plugin: Plugin<Record<string, never>, TServerContext> = {
    onRequest({ request, serverContext, url, endResponse, fetchAPI }) {
      const fresh = revalidate(request, url, serverContext);
      const notModified = (isFresh: boolean) => {
        if (isFresh) endResponse(new fetchAPI.Response(null, { status: 304 }));
        return isFresh;
      };
      if (isGraphQLPath(url.pathname)) {
        if (fresh === undefined) return;
        // Refused or failed here, a GraphQL GET goes on untagged: counting it answers the refusal as GraphQL's.
        return andThen(
          fresh,
          (isFresh) => {
            notModified(isFresh);
          },
          () => {
            serverContext.validator = undefined;
            identified.delete(request);
          },
        );
      }
      return andThen(
        andThen(fresh ?? false, (isFresh) =>
          notModified(isFresh)
            ? undefined
            : andThen(
                counted(() => enter(request, serverContext)),
                noop,
              ),
        ),
        noop,
        (error) => endResponse(refusal(error)),
      );
    },

    // Refusals thrown while Yoga parses become GraphQL error responses with their HTTP status.
    onRequestParse({ request, serverContext }) {
      return andThen(
        counted(() => enter(request, serverContext, isIntrospectionOnlyGet(request))),
        (quota) => ({ onRequestParseDone: countRestOfBatch(quota) }),
        rethrowAsGraphQLError,
      );
    },

    onResponse({ serverContext, response, setResponse, fetchAPI }) {
      // A GraphQL request refused whole with 503 (Yoga wrote the response) says when to retry, as REST's do.
      completeYogaRefusal(response);
      const quota = serverContext.quota;
      if (!(quota instanceof RequestQuota) || !quota.decision) return;
      let answer = response;
      // Yoga answers a batch 200 whatever its entries say; refused whole, it is a refusal.
      if (quota.everyOperationRefused && answer.status !== 429) {
        answer = new fetchAPI.Response(answer.body, { status: 429, headers: answer.headers });
        setResponse(answer);
      }
      setRateLimitHeaders(answer.headers, quota.decision.windows, quota.budget);
      const { caller } = quota;
      if (caller.kind === 'key')
        noteCaller(serverContext.req, caller.keyId, refusalKind(quota, answer.status));
      if (answer.status === 429 && quota.retryAfterSeconds !== undefined) {
        answer.headers.set('Retry-After', String(quota.retryAfterSeconds));
      }
    },
  };
  /**
   * A key holder's standing, counting nothing (the usage page's): who the key is, and its minute and day windows.
   * Refused as any request would be without a key (401) or with one that names no active key.
   */
  async function inspect(
    request: Pick<Request, 'headers'>,
    socketAddress: string | undefined,
  ): Promise<{
    caller: Extract<Caller, { kind: 'key' }>;
    windows: Windows;
    maxSubscriptions: number;
    openSubscriptions: number;
  }> {
    const identity = await counted(() => identify(request as Request, socketAddress));
    if (identity.keyRefused) throw apiError('invalidApiKey');
    if (identity.caller.kind !== 'key') throw apiError('usageNeedsKey');
    const [windows, openSubscriptions] = await Promise.all([
      counted(() => counting.limiter.peek(identity.subject, identity.limits)),
      counted(() => counters.countLeases(identity.subject)),
    ]);
    const { caller, maxSubscriptions } = identity;
    return { caller, windows, maxSubscriptions, openSubscriptions };
  }

  return { plugin, countRefusal, inspect };
}

function noop() {}

const TAG_FAILED = Symbol('the tag could not be read');

function tagOrFailure<T>(step: () => MaybePromise<T>): MaybePromise<T | typeof TAG_FAILED> {
  try {
    const value = step();
    return isPromise(value) ? value.catch(() => TAG_FAILED) : value;
  } catch {
    return TAG_FAILED;
  }
}

/** Why a 429 was answered, for the key's usage page; undefined for any other status. */
function refusalKind(quota: RequestQuota, status: number): string | undefined {
  if (status !== 429) return undefined;
  const { decision } = quota;
  if (quota.budget === 'introspection') return 'introspection';
  if (!decision || decision.admitted) return 'operation';
  if (decision.code === 'KEY_BANNED') return 'banned';
  return decision.refusedBy.policy;
}

/** A refusal as the Error object; anything else is not this layer's to answer. */
function refusal(error: unknown): Response {
  if (!(error instanceof ApiError)) throw error;
  return errorResponse(error);
}

/** Yoga turns a GraphQLError thrown while parsing into a GraphQL error response with `http.status`. */
function rethrowAsGraphQLError(error: unknown): never {
  if (!(error instanceof ApiError)) throw error;
  throw toGraphQLError(error, { httpStatus: true });
}
