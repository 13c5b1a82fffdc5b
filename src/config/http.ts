import { z } from 'zod';
import { wholeNumber } from './values.ts';

const milliseconds = wholeNumber({ min: 1, unit: 'milliseconds' });

/** Where the gateway listens, how long a client may take, and the custom domains it answers for. */
export const httpPart = z
  .object({
    HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
    PORT: wholeNumber({ min: 0, max: 65535 }).default(4000),
    HTTP_REQUEST_TIMEOUT_MS: milliseconds.default(30_000),
    HTTP_HEADERS_TIMEOUT_MS: milliseconds.default(10_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: milliseconds.default(5_000),
    DOMAINS_CONFIG: z.string().optional(),
  })
  .refine((env) => env.HTTP_HEADERS_TIMEOUT_MS <= env.HTTP_REQUEST_TIMEOUT_MS, {
    path: ['HTTP_HEADERS_TIMEOUT_MS'],
    message: 'must not be more than HTTP_REQUEST_TIMEOUT_MS',
  })
  .transform((env) => ({
    host: env.HOST,
    port: env.PORT,
    http: {
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    domainsFile: env.DOMAINS_CONFIG || undefined,
  }));
