import { z } from 'zod';
import { DEFAULT_PLANS, type Limits, type Plan, type TablePlan } from '../contract/plans.ts';
import { readConfig } from './read.ts';
import { wholeNumber } from './values.ts';

export interface RateLimitConfig {
  plans: Record<TablePlan, Limits>;
  /** Length of the window that the plans' "per minute" counts, in seconds (shorter in tests). */
  minuteSeconds: number;
  /** Length of the window that the plans' "per day" counts, in seconds. */
  daySeconds: number;
  /** A caller refused more than this many times in one minute window is banned. */
  banAfterRefusals: number;
  banSeconds: number;
  /** How many X-Forwarded-For hops to trust (0: the socket address is the client). */
  trustProxyHops: number;
  redisUrl: string | undefined;
  /** Prefix of the Redis keys, so that separate deployments (or test runs) can share one Redis. */
  redisKeyPrefix: string;
  /** With Redis unreachable: `open` counts in-process per gateway, `closed` refuses with 503. */
  onRedisFailure: 'open' | 'closed';
  /** Past this, a Redis command counts as failed (a stalled Redis must not stall requests). */
  redisCommandTimeoutMs: number;
  /** Redis commands failed in a row after which Redis counts as unreachable, without waiting on it. */
  redisBreakerFailures: number;
  /** How long Redis then counts as unreachable before one command tries it again. */
  redisBreakerOpenMs: number;
  keyCacheTtlMs: number;
  keyCacheSize: number;
  /** Per-field limits inside GraphQL, per caller per minute window, by field name. */
  fieldLimits: Record<string, number>;
  /** Introspection-only GraphQL GETs (GraphiQL's schema loads), per caller per minute window, beside the plan's. */
  introspectionPerMinute: number;
  /** Open subscriptions a caller may hold at once, by plan (enterprise: each enterprise key). */
  maxSubscriptions: Record<Plan, number>;
  /**
   * An open subscription's lease in the counter store lasts this long and is renewed while the stream is open,
   * so that the leases of a process that died lapse by themselves.
   */
  subscriptionLeaseSeconds: number;
}

/** The issue's caps; enterprise keys get theirs from configuration (the plan's limits are per key). */
export const DEFAULT_MAX_SUBSCRIPTIONS: Record<Plan, number> = {
  free: 2,
  pro: 10,
  business: 50,
  enterprise: 200,
};

const count = wholeNumber({ min: 1 });

// Inside the JSON of RATE_LIMIT_PLANS the numbers are JSON numbers, not text.
const planLimit = z.int('must be a whole number >= 1').min(1, 'must be a whole number >= 1');
const planEntry = z.strictObject({ perMinute: planLimit, perDay: planLimit }).partial().optional();

const json = z.string().transform((text, ctx) => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'is not valid JSON' });
    return z.NEVER;
  }
});

const planTable = json.pipe(
  z.strictObject(
    { free: planEntry, pro: planEntry, business: planEntry },
    { error: 'only free, pro and business have table entries (enterprise limits are set per key)' },
  ),
);

// The cap of open subscriptions by plan, e.g. {"free": 3}; enterprise's applies to each enterprise key.
const subscriptionCaps = json.pipe(
  z
    .strictObject(
      { free: planLimit, pro: planLimit, business: planLimit, enterprise: planLimit },
      { error: 'only free, pro, business and enterprise have caps' },
    )
    .partial(),
);

// An empty variable (`REDIS_URL=`) means unset, as in most deployment tools.
const withoutEmptyValues = (env: unknown) =>
  Object.fromEntries(Object.entries(env as Record<string, string>).filter(([, value]) => value !== ''));

/** The plan table, the windows, the ban, where the counters live, and the API key cache. */
export const rateLimitPart = z.preprocess(
  withoutEmptyValues,
  z
    .object({
      RATE_LIMIT_PLANS: planTable.optional(),
      RATE_LIMIT_MINUTE_SECONDS: count.default(60),
      RATE_LIMIT_DAY_SECONDS: count.default(86_400),
      RATE_LIMIT_BAN_AFTER: count.default(30),
      RATE_LIMIT_BAN_SECONDS: count.default(600),
      RATE_LIMIT_ON_REDIS_FAILURE: z.enum(['open', 'closed']).default('open'),
      REDIS_COMMAND_TIMEOUT_MS: wholeNumber({ min: 1, unit: 'milliseconds' }).default(500),
      REDIS_BREAKER_FAILURES: count.default(3),
      REDIS_BREAKER_OPEN_MS: wholeNumber({ min: 1, unit: 'milliseconds' }).default(5000),
      PLACE_ORDER_PER_MINUTE: count.default(10),
      RATE_LIMIT_INTROSPECTION_PER_MINUTE: count.default(30),
      TRUST_PROXY: wholeNumber({ min: 0 }).default(0),
      REDIS_URL: z
        .string()
        .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
        .optional(),
      RATE_LIMIT_REDIS_PREFIX: z
        .string()
        .regex(/^[\w:.-]+$/, 'must be letters, digits, and _ : . - only')
        .default('psg'),
      API_KEY_CACHE_TTL_MS: wholeNumber({ min: 0 }).default(5000),
      API_KEY_CACHE_SIZE: count.default(10_000),
      MAX_SUBSCRIPTIONS: subscriptionCaps.optional(),
      SUBSCRIPTION_LEASE_SECONDS: count.default(60),
    })
    .transform((env): RateLimitConfig => {
      const overrides = env.RATE_LIMIT_PLANS ?? {};
      return {
        plans: {
          free: { ...DEFAULT_PLANS.free, ...overrides.free },
          pro: { ...DEFAULT_PLANS.pro, ...overrides.pro },
          business: { ...DEFAULT_PLANS.business, ...overrides.business },
        },
        minuteSeconds: env.RATE_LIMIT_MINUTE_SECONDS,
        daySeconds: env.RATE_LIMIT_DAY_SECONDS,
        banAfterRefusals: env.RATE_LIMIT_BAN_AFTER,
        banSeconds: env.RATE_LIMIT_BAN_SECONDS,
        trustProxyHops: env.TRUST_PROXY,
        redisUrl: env.REDIS_URL,
        redisKeyPrefix: env.RATE_LIMIT_REDIS_PREFIX,
        onRedisFailure: env.RATE_LIMIT_ON_REDIS_FAILURE,
        redisCommandTimeoutMs: env.REDIS_COMMAND_TIMEOUT_MS,
        redisBreakerFailures: env.REDIS_BREAKER_FAILURES,
        redisBreakerOpenMs: env.REDIS_BREAKER_OPEN_MS,
        keyCacheTtlMs: env.API_KEY_CACHE_TTL_MS,
        keyCacheSize: env.API_KEY_CACHE_SIZE,
        fieldLimits: { placeOrder: env.PLACE_ORDER_PER_MINUTE },
        introspectionPerMinute: env.RATE_LIMIT_INTROSPECTION_PER_MINUTE,
        maxSubscriptions: { ...DEFAULT_MAX_SUBSCRIPTIONS, ...env.MAX_SUBSCRIPTIONS },
        subscriptionLeaseSeconds: env.SUBSCRIPTION_LEASE_SECONDS,
      };
    }),
);

/** The rate-limit settings alone, for tools and tests that need no other part. */
export const loadRateLimitConfig = (env: NodeJS.ProcessEnv = process.env) =>
  readConfig({ rateLimit: rateLimitPart }, env).rateLimit;
