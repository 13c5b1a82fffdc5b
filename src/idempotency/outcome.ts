import { createHash } from 'node:crypto';
import { Response } from '@whatwg-node/fetch';
import type { Config } from '../config/index.ts';
import { errorResponse, graphqlErrorResponse } from '../contract/error-response.ts';
import { apiError } from '../contract/errors.ts';
import { IDEMPOTENCY_RETENTION_MS } from '../contract/limits.ts';
import type { Db } from '../db/client.ts';
import type { Logger } from '../observability/logger.ts';
import type { Run } from './claim.ts';
import { keptBodyBytes, saveRecord } from './records.ts';

/** The headers of a first response that are part of its outcome, and so replayed; the others describe the request. */
const OUTCOME_HEADERS = ['content-type', 'location', 'link', 'deprecation', 'sunset'];

export interface OutcomeDeps {
  log: Pick<Logger, 'warn'>;
  now: () => number;
  /** What a record keeps of an answer: one record's body, and one API key's records' bodies together. */
  limits: Config['idempotency'];
}

/** The response to send once a keyed write has run: it commits with its record, or nothing of it is kept. */
export type Finish = (run: Run, response: Response) => Promise<Response>;

export function recordOutcomes({ log, now, limits }: OutcomeDeps): Finish {
  /**
   * The answer's body as its record keeps it: whole, or its digest alone when it is larger than a record keeps
   * or than what is left of its API key's budget. The write stands either way, and its key still replays (as
   * IDEMPOTENCY_ANSWER_NOT_KEPT) rather than run it twice.
   */
  async function keptAnswer(prisma: Db, apiKeyId: bigint, body: string | null) {
    if (body === null) return { body, bodyDigest: null };
    const bytes = Buffer.byteLength(body);
    const fits =
      bytes <= limits.maxRecordBytes &&
      (await keptBodyBytes(prisma, apiKeyId, new Date(now()))) + bytes <= limits.maxBytesPerKey;
    if (fits) return { body, bodyDigest: null };
    return { body: null, bodyDigest: createHash('sha256').update(body).digest('hex') };
  }

  return async (run, response) => {
    const { transaction } = run;
    // No mutation ran: refused before (401, 403, 429, bad input). The key stays free for a retry.
    if (!transaction.worked) {
      await transaction.rollback();
      return response;
    }
    try {
      const body = (await response.text()) || null;
      const answer = new Response(body, { status: response.status, headers: response.headers });
      if (asksForRetry(response.status) || run.asksForRetry) {
        await transaction.rollback();
        // REST runs one operation, whose error already says it did nothing. A GraphQL response may report the
        // writes of other fields, which are now undone.
        return run.api === 'rest' ? answer : nothingKept(run.api, response.headers);
      }
      const record = {
        fingerprint: run.fingerprint,
        status: response.status,
        headers: outcomeHeaders(response.headers),
        body,
      };
      await transaction.commit(async (prisma) => {
        const kept = await keptAnswer(prisma, run.id.apiKeyId, body);
        await saveRecord(prisma, run.id, { ...record, ...kept }, expiry(now()));
      });
      return answer;
    } catch (error) {
      await transaction.rollback();
      log.warn(
        { error: String(error) },
        'a write sent with an Idempotency-Key could not commit: nothing kept',
      );
      return nothingKept(run.api, response.headers);
    }
  };
}

/** A server error or a rate limit: the client is to retry, so the answer is not one to replay. */
export const asksForRetry = (status: number) => status === 429 || status >= 500;

/** Answer to a keyed write whose writes were all undone: UNAVAILABLE, with this request's other headers. */
function nothingKept(api: Run['api'], headers: Headers): Response {
  const requestHeaders = new Headers(headers);
  for (const name of [...OUTCOME_HEADERS, 'content-length']) requestHeaders.delete(name);
  const answer = api === 'rest' ? errorResponse : graphqlErrorResponse;
  return answer(apiError('nothingKept'), Object.fromEntries(requestHeaders));
}

function outcomeHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of OUTCOME_HEADERS) {
    const value = headers.get(name);
    if (value !== null) kept[name] = value;
  }
  return kept;
}

function expiry(now: number) {
  return { createdAt: new Date(now), expiresAt: new Date(now + IDEMPOTENCY_RETENTION_MS) };
}
