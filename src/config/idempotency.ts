import { z } from 'zod';
import { wholeNumber } from './values.ts';

/**
 * What idempotency records may keep (docs/idempotency.md): the answer's body of one record, and the answers'
 * bodies of one API key's unexpired records together. An answer past either keeps its status and digest only.
 */
export const idempotencyPart = z
  .object({
    IDEMPOTENCY_MAX_RECORD_BYTES: wholeNumber({ min: 0, max: 16 * 1024 * 1024, unit: 'bytes' }).default(
      64 * 1024,
    ),
    IDEMPOTENCY_MAX_BYTES_PER_KEY: wholeNumber({ min: 0, unit: 'bytes' }).default(32 * 1024 * 1024),
  })
  .refine((env) => env.IDEMPOTENCY_MAX_BYTES_PER_KEY >= env.IDEMPOTENCY_MAX_RECORD_BYTES, {
    path: ['IDEMPOTENCY_MAX_BYTES_PER_KEY'],
    message: 'must not be less than IDEMPOTENCY_MAX_RECORD_BYTES',
  })
  .transform((env) => ({
    maxRecordBytes: env.IDEMPOTENCY_MAX_RECORD_BYTES,
    maxBytesPerKey: env.IDEMPOTENCY_MAX_BYTES_PER_KEY,
  }));
