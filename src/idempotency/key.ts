import { createHash } from 'node:crypto';
import { apiError } from '../contract/errors.ts';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../contract/limits.ts';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

const PRINTABLE = /^[\x20-\x7e]+$/;

/**
 * The request's Idempotency-Key, undefined when it sent none. Anything but 1 to MAX_IDEMPOTENCY_KEY_LENGTH printable ASCII characters
 * (a UUID, say) is VALIDATION_FAILED naming the header.
 */
export function readIdempotencyKey(headers: Headers): string | undefined {
  const key = headers.get(IDEMPOTENCY_KEY_HEADER);
  if (key === null) return undefined;
  const problem =
    key === ''
      ? 'empty'
      : key.length > MAX_IDEMPOTENCY_KEY_LENGTH
        ? 'too long'
        : !PRINTABLE.test(key)
          ? 'not printable'
          : undefined;
  if (!problem) return key;
  throw apiError('idempotencyKeyInvalid', { problem, length: key.length });
}

/** What a repeat must match: the sha256, in hex, of `parts` joined by newlines. */
export function fingerprint(...parts: (Uint8Array | string)[]): string {
  const hash = createHash('sha256');
  parts.forEach((part, i) => {
    if (i > 0) hash.update('\n');
    hash.update(part);
  });
  return hash.digest('hex');
}
