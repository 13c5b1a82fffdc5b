import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { ConfigError } from './config-error.ts';
import { DEFAULT_PETS_BY_ID_DEPRECATION } from './contract/pets-by-id.ts';
import { DEFAULT_DATABASE_URL, parseDatabaseUrl, redact } from './db/target.ts';
import { loadRateLimitConfig } from './ratelimit/config.ts';

const instant = z
  .union(
    [z.iso.date(), z.iso.datetime({ offset: true })],
    'must be an ISO 8601 date (2027-07-01) or date-time with a zone (2027-07-01T00:00:00Z)',
  )
  .transform((text) => new Date(text));

const positive = (unit: string) =>
  z
    .string()
    .regex(/^[1-9]\d*$/, `must be a whole number of ${unit} >= 1`)
    .transform(Number);

/** Every setting comes from the environment and is checked once, at start, with one message per problem. */
const envSchema = z
  .object({
    HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
    PORT: z
      .string()
      .regex(/^\d+$/, 'must be a whole number from 0 to 65535')
      .transform(Number)
      .refine((port) => port <= 65535, 'must be a whole number from 0 to 65535')
      .default(4000),
    DOMAINS_CONFIG: z.string().optional(),
    DATABASE_URL: z
      .string()
      .default(DEFAULT_DATABASE_URL)
      .superRefine((url, ctx) => {
        try {
          parseDatabaseUrl(url);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
        }
      }),
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    SEED_DEMO_DATA: z
      .enum(['true', 'false'], 'must be true or false')
      .default('true')
      .transform((v) => v === 'true'),
    PETS_BY_ID_DEPRECATED_AT: instant.default(DEFAULT_PETS_BY_ID_DEPRECATION.deprecatedAt),
    PETS_BY_ID_SUNSET_AT: instant.default(DEFAULT_PETS_BY_ID_DEPRECATION.sunsetAt),
    REST_MAX_BODY_BYTES: positive('bytes').default(64 * 1024),
    LOG_LEVEL: z
      .enum(
        ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
        'must be one of fatal, error, warn, info, debug, trace, silent',
      )
      .optional(),
    WORKERS: z
      .string()
      .regex(/^([1-9]\d*|auto)$/, 'must be a whole number >= 1, or auto (one per CPU)')
      .transform((workers) => (workers === 'auto' ? availableParallelism() : Number(workers)))
      .default(1),
    SHUTDOWN_TIMEOUT_MS: positive('milliseconds').default(10_000),
    SHUTDOWN_DELAY_MS: z
      .string()
      .regex(/^\d+$/, 'must be a whole number of milliseconds >= 0')
      .transform(Number)
      .default(0),
    HTTP_REQUEST_TIMEOUT_MS: positive('milliseconds').default(30_000),
    HTTP_HEADERS_TIMEOUT_MS: positive('milliseconds').default(10_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: positive('milliseconds').default(5_000),
    GRAPHQL_MAX_BODY_BYTES: positive('bytes').default(64 * 1024),
    GRAPHQL_MAX_DEPTH: positive('levels').default(10),
    GRAPHQL_MAX_COST: positive('points').default(20_000),
    GRAPHQL_MAX_ALIASES: positive('aliases').default(15),
    GRAPHQL_MAX_DIRECTIVES: positive('directives').default(50),
    GRAPHQL_MAX_TOKENS: positive('tokens').default(2_000),
    RESPONSE_CACHE_ENTRIES: z
      .string()
      .regex(/^\d+$/, 'must be a whole number of results >= 0 (0 turns the cache off)')
      .transform(Number)
      .default(2_000),
  })
  .refine((env) => env.PETS_BY_ID_SUNSET_AT >= env.PETS_BY_ID_DEPRECATED_AT, {
    path: ['PETS_BY_ID_SUNSET_AT'],
    message: 'must not be earlier than PETS_BY_ID_DEPRECATED_AT',
  })
  .refine((env) => env.HTTP_HEADERS_TIMEOUT_MS <= env.HTTP_REQUEST_TIMEOUT_MS, {
    path: ['HTTP_HEADERS_TIMEOUT_MS'],
    message: 'must not be more than HTTP_REQUEST_TIMEOUT_MS',
  });

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = envSchema.safeParse(env);
  // Both checked before either is reported, so that one start names every problem.
  const rateLimit = settingsOrProblem(() => loadRateLimitConfig(env));
  if (!parsed.success || rateLimit instanceof ConfigError) {
    const problems = (parsed.error?.issues ?? []).map((issue) => {
      const name = String(issue.path[0]);
      return `  ${name}=${JSON.stringify(redact(env[name] ?? ''))}: ${issue.message}`;
    });
    const reports = [
      ...(problems.length > 0 ? [`Invalid configuration:\n${problems.join('\n')}`] : []),
      ...(rateLimit instanceof ConfigError ? [rateLimit.message] : []),
    ];
    throw new ConfigError(reports.join('\n'));
  }
  const { HOST, PORT, DATABASE_URL, NODE_ENV, SEED_DEMO_DATA } = parsed.data;
  return {
    host: HOST,
    port: PORT,
    database: parseDatabaseUrl(DATABASE_URL),
    production: NODE_ENV === 'production',
    seedDemoData: SEED_DEMO_DATA,
    /** Serving processes: 1 serves in this process; more makes it a node:cluster primary of that many workers. */
    workers: parsed.data.WORKERS,
    domainsFile: parsed.data.DOMAINS_CONFIG || undefined,
    rateLimit,
    petsByIdDeprecation: {
      deprecatedAt: parsed.data.PETS_BY_ID_DEPRECATED_AT,
      sunsetAt: parsed.data.PETS_BY_ID_SUNSET_AT,
    },
    restMaxBodyBytes: parsed.data.REST_MAX_BODY_BYTES,
    // Tests start many gateways in one process: their request logs stay off unless asked for.
    logLevel: parsed.data.LOG_LEVEL ?? (NODE_ENV === 'test' ? 'silent' : 'info'),
    shutdownTimeoutMs: parsed.data.SHUTDOWN_TIMEOUT_MS,
    /** On SIGTERM, how long to keep serving with /readyz at 503 before draining (see docs/deploy.md). */
    shutdownDelayMs: parsed.data.SHUTDOWN_DELAY_MS,
    http: {
      requestTimeoutMs: parsed.data.HTTP_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: parsed.data.HTTP_HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: parsed.data.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    graphqlLimits: {
      maxBodyBytes: parsed.data.GRAPHQL_MAX_BODY_BYTES,
      maxDepth: parsed.data.GRAPHQL_MAX_DEPTH,
      maxCost: parsed.data.GRAPHQL_MAX_COST,
      maxAliases: parsed.data.GRAPHQL_MAX_ALIASES,
      maxDirectives: parsed.data.GRAPHQL_MAX_DIRECTIVES,
      maxTokens: parsed.data.GRAPHQL_MAX_TOKENS,
    },
    /** Query results kept while the store is unchanged (SQLite only; see graphql/plugins/response-cache.ts). */
    responseCacheEntries: parsed.data.RESPONSE_CACHE_ENTRIES,
  };
}

function settingsOrProblem<T>(load: () => T): T | ConfigError {
  try {
    return load();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
}
