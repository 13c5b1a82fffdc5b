import { z } from 'zod';
import { ConfigError } from '../config-error.ts';
import type { Limits, TablePlan } from '../keys/plans.ts';

export const DEFAULT_PLANS: Record<TablePlan, Limits> = {
  free: { perMinute: 60, perDay: 1000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1000, perDay: 100_000 },
};

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
  keyCacheTtlMs: number;
  keyCacheSize: number;
  /** Per-field limits inside GraphQL, per caller per minute window, by field name. */
  fieldLimits: Record<string, number>;
}

const wholeNumber = (min: 0 | 1) => {
  const error = min === 1 ? 'must be a whole number >= 1' : 'must be a whole number >= 0';
  return z.coerce.number({ error }).int({ error }).min(min, { error });
};
const count = wholeNumber(1);
const limits = z.strictObject({ perMinute: count, perDay: count });

const planTable = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'is not valid JSON' });
      return z.NEVER;
    }
  })
  .pipe(
    z.strictObject(
      {
        free: limits.partial().optional(),
        pro: limits.partial().optional(),
        business: limits.partial().optional(),
      },
      { error: 'only free, pro and business have table entries (enterprise limits are set per key)' },
    ),
  );

const env = z.object({
  RATE_LIMIT_PLANS: planTable.optional(),
  RATE_LIMIT_MINUTE_SECONDS: count.default(60),
  RATE_LIMIT_DAY_SECONDS: count.default(86_400),
  RATE_LIMIT_BAN_AFTER: count.default(30),
  RATE_LIMIT_BAN_SECONDS: count.default(600),
  RATE_LIMIT_ON_REDIS_FAILURE: z.enum(['open', 'closed']).default('open'),
  PLACE_ORDER_PER_MINUTE: count.default(10),
  TRUST_PROXY: wholeNumber(0).default(0),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  RATE_LIMIT_REDIS_PREFIX: z
    .string()
    .regex(/^[\w:.-]+$/, 'must be letters, digits, and _ : . - only')
    .default('psg'),
  API_KEY_CACHE_TTL_MS: wholeNumber(0).default(5000),
  API_KEY_CACHE_SIZE: count.default(10_000),
});

/** Reads the rate-limit settings from the environment; throws one error naming every bad variable. */
export function loadRateLimitConfig(source: NodeJS.ProcessEnv = process.env): RateLimitConfig {
  // An empty variable (`REDIS_URL=`) means unset, as in most deployment tools.
  const given = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = env.safeParse(given);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid rate-limit configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  const overrides = e.RATE_LIMIT_PLANS ?? {};
  return {
    plans: {
      free: { ...DEFAULT_PLANS.free, ...overrides.free },
      pro: { ...DEFAULT_PLANS.pro, ...overrides.pro },
      business: { ...DEFAULT_PLANS.business, ...overrides.business },
    },
    minuteSeconds: e.RATE_LIMIT_MINUTE_SECONDS,
    daySeconds: e.RATE_LIMIT_DAY_SECONDS,
    banAfterRefusals: e.RATE_LIMIT_BAN_AFTER,
    banSeconds: e.RATE_LIMIT_BAN_SECONDS,
    trustProxyHops: e.TRUST_PROXY,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.RATE_LIMIT_REDIS_PREFIX,
    onRedisFailure: e.RATE_LIMIT_ON_REDIS_FAILURE,
    keyCacheTtlMs: e.API_KEY_CACHE_TTL_MS,
    keyCacheSize: e.API_KEY_CACHE_SIZE,
    fieldLimits: { placeOrder: e.PLACE_ORDER_PER_MINUTE },
  };
}
