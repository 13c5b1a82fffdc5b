import { Response } from '@whatwg-node/fetch';
import { apiError } from '../contract/errors.ts';
import type { Fingerprints } from './fingerprints.ts';
import { REPLAYED_HEADER } from './key.ts';
import type { IdempotencyRecord } from './records.ts';

/**
 * A repeat's answer: the recorded response, marked `Idempotent-Replayed: true`. Refuses (throws) a repeat whose
 * request differs (IDEMPOTENCY_KEY_REUSED) and one whose answer was too large to keep (IDEMPOTENCY_ANSWER_NOT_KEPT).
 */
export function replay(record: IdempotencyRecord, { meaning, bytes }: Fingerprints): Response {
  if (record.fingerprint !== meaning && record.fingerprint !== bytes) {
    throw apiError('idempotencyKeyReused');
  }
  if (record.bodyDigest !== null) {
    throw apiError('idempotencyAnswerNotKept', { status: record.status, digest: record.bodyDigest });
  }
  return new Response(record.body, {
    status: record.status,
    headers: { ...record.headers, [REPLAYED_HEADER]: 'true' },
  });
}
