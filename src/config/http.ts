import { z } from 'zod';
import { wholeNumber } from './values.ts';

const milliseconds = wholeNumber({ min: 1, unit: 'milliseconds' });

// An origin as a browser sends it: scheme, host and port only (no path, no trailing slash), or `*`.
const isOrigin = (entry: string) => {
  try {
    return entry === '*' || new URL(entry).origin === entry;
  } catch {
    return false;
  }
};

/** `CORS_ORIGINS`: a comma-separated list of exact origins, or `*`; empty or unset: none. */
const corsOrigins = z
  .string()
  .default('')
  .transform((text) =>
    text
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  )
  .refine(
    (entries) => entries.every(isOrigin),
    'must be `*` or comma-separated origins such as https://app.example.com (scheme, host, port; no path)',
  );

/**
 * Where the gateway listens (and /metrics), how long a client may take, the custom domains it answers for, and
 * which other origins' pages may call it.
 */
export const httpPart = z
  .object({
    HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
    PORT: wholeNumber({ min: 0, max: 65535 }).default(4000),
    HTTP_REQUEST_TIMEOUT_MS: milliseconds.default(30_000),
    HTTP_HEADERS_TIMEOUT_MS: milliseconds.default(10_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: milliseconds.default(5_000),
    DOMAINS_CONFIG: z.string().optional(),
    CORS_ORIGINS: corsOrigins,
    METRICS_PORT: wholeNumber({ min: 0, max: 65535 }).optional(),
    METRICS_REUSE_MS: wholeNumber({ min: 0, unit: 'milliseconds' }).default(1000),
    HTTP_CACHE_MAX_AGE: wholeNumber({ min: 0, max: 3600, unit: 'seconds' }).default(0),
  })
  .refine((env) => env.HTTP_HEADERS_TIMEOUT_MS <= env.HTTP_REQUEST_TIMEOUT_MS, {
    path: ['HTTP_HEADERS_TIMEOUT_MS'],
    message: 'must not be more than HTTP_REQUEST_TIMEOUT_MS',
  })
  .refine(
    (env) => env.METRICS_PORT === undefined || env.METRICS_PORT === 0 || env.METRICS_PORT !== env.PORT,
    {
      path: ['METRICS_PORT'],
      message: 'must differ from PORT (unset: /metrics is served on PORT)',
    },
  )
  .transform((env) => ({
    host: env.HOST,
    port: env.PORT,
    http: {
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    domainsFile: env.DOMAINS_CONFIG || undefined,
    /** Origins whose pages may call the API from a browser; `*` for any. Empty: same origin only. */
    corsOrigins: env.CORS_ORIGINS,
    /** A listener of its own for /metrics, so that scrapes cannot crowd out the API (unset: on `port`). */
    metricsPort: env.METRICS_PORT,
    /** Scrapes within this long of the last gathering of the metrics get its result. */
    metricsReuseMs: env.METRICS_REUSE_MS,
    /** Seconds any cache may reuse a public read without asking again (0: it revalidates every time). */
    publicMaxAgeSeconds: env.HTTP_CACHE_MAX_AGE,
  }));
