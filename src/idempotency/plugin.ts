import { createHash } from 'node:crypto';
import { Response } from '@whatwg-node/fetch';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import type { Config } from '../config/index.ts';
import { readBody } from '../contract/body-limit.ts';
import type { Caller } from '../contract/caller.ts';
import { isGraphQLPath } from '../contract/endpoints.ts';
import { errorResponse } from '../contract/error-response.ts';
import { ApiError, apiError } from '../contract/errors.ts';
import { toGraphQLError } from '../contract/graphql-error.ts';
import { IDEMPOTENCY_RETENTION_MS } from '../contract/limits.ts';
import { type DocumentCache, mayWrite } from '../contract/operations.ts';
import type { Database, Db } from '../db/client.ts';
import { type HeldTransaction, holdTransaction } from '../db/held-transaction.ts';
import type { Logger } from '../observability/logger.ts';
import { isDatabaseUnavailable } from '../store/prisma-errors.ts';
import { fingerprint, IDEMPOTENCY_KEY_HEADER, REPLAYED_HEADER, readIdempotencyKey } from './key.ts';
import { graphqlMeaning } from './meaning.ts';
import {
  findRecord,
  type IdempotencyRecord,
  keptBodyBytes,
  lockKey,
  type RecordId,
  saveRecord,
} from './records.ts';

// A keyed write holds its transaction (on SQLite, the database's write lock) for as long as it runs: one that
// takes longer is rolled back and answered 503. The wait to begin matches SQLite's busy timeout.
const HOLD = { timeoutMs: 10_000, maxWaitMs: 5_000 };

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The headers of a first response that are part of its outcome, and so replayed; the others describe the request. */
const OUTCOME_HEADERS = ['content-type', 'location', 'link', 'deprecation', 'sunset'];

export interface IdempotencyDeps {
  db: Pick<Database, 'prisma' | 'target'>;
  /** The REST adapter's body limit: a keyed REST write's body is read here, before its transaction begins. */
  maxRestBodyBytes: number;
  log: Pick<Logger, 'warn' | 'error'>;
  now?: () => number;
  /** What a record keeps of an answer: one record's body, and one API key's records' bodies together. */
  limits: Config['idempotency'];
  /** The schema, whose variable types a GraphQL request's variables are compared by. */
  schema: GraphQLSchema;
  /** Yoga's parsed documents: a request's are read here once, and Yoga then runs the same. */
  documents: DocumentCache;
  /** A REST write's meaning as canonical text (src/rest/meaning.ts); undefined for one REST would refuse. */
  restMeaning: (request: Request, url: URL, body: Uint8Array<ArrayBuffer>) => Promise<string | undefined>;
}

/** What this layer reads on the server context (the caller, from the rate-limit layer) and adds to it. */
export interface IdempotentContext {
  caller?: Caller;
  transaction?: HeldTransaction;
}

/**
 * What a repeat must match: the fingerprint of the request's meaning, which its record keeps, and the one of its
 * bytes as the records written before meanings were compared keep it (for a day after the upgrade).
 */
interface Fingerprints {
  meaning: string;
  bytes: string;
}

/** A keyed write on its way: the record it is to leave, and the transaction it runs in. */
interface Run {
  id: RecordId;
  fingerprint: string;
  transaction: HeldTransaction;
  api: 'rest' | 'graphql';
  /** An error in its results asks the client to retry (5xx, 429): then nothing of it is kept. */
  asksForRetry: boolean;
}

const RUN = Symbol('idempotent run');
type WithRun = { [RUN]?: Run };

/**
 * Idempotent writes (docs/idempotency.md). A REST write or a GraphQL mutation request sent with an
 * Idempotency-Key by an API key runs in one transaction held across the request; its response is recorded in
 * that same transaction, so the write and the record commit together or not at all. A repeat (same API key,
 * key, method, target and body) within IDEMPOTENCY_RETENTION_MS is answered the recorded response, with
 * `Idempotent-Replayed: true`, and runs nothing.
 */
export function useIdempotency<TServerContext extends IdempotentContext = IdempotentContext>({
  db,
  maxRestBodyBytes,
  log,
  now = Date.now,
  limits,
  schema,
  documents,
  restMeaning,
}: IdempotencyDeps): Plugin<Record<string, never>, TServerContext> {
  // Keys whose first request runs in this process. Other processes are kept out by lockKey.
  const running = new Set<string>();

  /**
   * Begins a keyed request: the response to replay, or undefined with the request's transaction on the server
   * context. Refuses (throws) IDEMPOTENCY_KEY_IN_USE and IDEMPOTENCY_KEY_REUSED.
   */
  async function enter(
    serverContext: IdempotentContext & WithRun,
    id: RecordId,
    api: Run['api'],
    fingerprintOf: () => Promise<Fingerprints>,
  ): Promise<Response | undefined> {
    const name = `${id.apiKeyId} ${id.key}`;
    if (running.has(name)) throw inUse();
    running.add(name);
    try {
      const begun = await begin(id, api, await fingerprintOf());
      if (begun instanceof Response) {
        running.delete(name);
        return begun;
      }
      begun.transaction.ended.then(() => running.delete(name));
      serverContext.transaction = begun.transaction;
      serverContext[RUN] = begun;
      return undefined;
    } catch (error) {
      running.delete(name);
      throw error;
    }
  }

  async function begin(id: RecordId, api: Run['api'], fingerprints: Fingerprints): Promise<Response | Run> {
    // Read first outside any transaction, so that a replay never waits for (on SQLite) the write lock.
    const earlier = await findRecord(db.prisma, id, new Date(now()));
    if (earlier) return replay(earlier, fingerprints);
    const transaction = await holdTransaction(db.prisma, HOLD);
    try {
      if (!(await lockKey(transaction.prisma, db.target.provider, id))) throw inUse();
      // Completed by another process since the read above.
      const completed = await findRecord(transaction.prisma, id, new Date(now()));
      if (completed) {
        await transaction.rollback();
        return replay(completed, fingerprints);
      }
      return { id, fingerprint: fingerprints.meaning, transaction, api, asksForRetry: false };
    } catch (error) {
      await transaction.rollback();
      throw error;
    }
  }

  /** The response to send once the request has run: the keyed write commits with its record, or nothing is kept. */
  async function finish(run: Run, response: Response): Promise<Response> {
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
  }

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

  function refusal(error: unknown): Response {
    if (error instanceof ApiError) return errorResponse(error);
    if (isDatabaseUnavailable(error)) return errorResponse(apiError('databaseUnavailable'));
    log.error({ err: error }, 'idempotency layer failed');
    return errorResponse(apiError('internal'));
  }

  return {
    // REST: a write's body is read before its transaction begins, so that a slow client holds no lock.
    onRequest({ request, url, serverContext, setRequest, endResponse, fetchAPI }) {
      const caller = serverContext.caller;
      if (isGraphQLPath(url.pathname) || !WRITE_METHODS.has(request.method) || caller?.kind !== 'key') return;
      let key: string | undefined;
      try {
        key = readIdempotencyKey(request.headers);
      } catch (error) {
        return endResponse(refusal(error));
      }
      if (key === undefined) return;
      const readAndFingerprint = async () => {
        const body = await readBody(request, maxRestBodyBytes);
        const { method, headers } = request;
        setRequest(
          new fetchAPI.Request(request.url, { method, headers, body: body.byteLength ? body : null }),
        );
        const bytes = fingerprint(`${method} ${url.pathname}${url.search}`, body);
        const meaning = await restMeaning(request, url, body);
        return { meaning: meaning === undefined ? bytes : fingerprint('REST', meaning), bytes };
      };
      return enter(serverContext, { apiKeyId: caller.keyId, key }, 'rest', readAndFingerprint).then(
        (replayed) => replayed && endResponse(replayed),
        (error: unknown) => endResponse(refusal(error)),
      );
    },

    // GraphQL: once the body is parsed, a request with a mutation (or a document it cannot read) is a write.
    onRequestParse({ request, url, serverContext, requestParser, setRequestParser }) {
      const caller = serverContext.caller;
      if (request.method !== 'POST' || !requestParser || caller?.kind !== 'key') return;
      // Not `has`: @whatwg-node's Headers answers false for a header sent empty.
      if (request.headers.get(IDEMPOTENCY_KEY_HEADER) === null) return;
      setRequestParser(async (parsing) => {
        const parsed = await requestParser(parsing);
        if (isResponse(parsed)) return parsed;
        if (!mayWrite(parsed, documents)) return parsed;
        try {
          const id = { apiKeyId: caller.keyId, key: readIdempotencyKey(parsing.headers) as string };
          const operations = async () => ({
            meaning: fingerprint('GraphQL', graphqlMeaning(schema, parsed, documentsOf(parsed, documents))),
            bytes: fingerprint(`POST ${url.pathname}`, JSON.stringify(parsed)),
          });
          return (await enter(serverContext, id, 'graphql', operations)) ?? parsed;
        } catch (error) {
          throw asGraphQLError(error);
        }
      });
    },

    onExecutionResult({ result, context }) {
      const run = (context as WithRun)[RUN];
      if (!run || !result || Symbol.asyncIterator in result) return;
      run.asksForRetry ||= (result.errors ?? []).some((error) =>
        asksForRetry(Number(error.extensions?.status)),
      );
    },

    async onResponse({ serverContext, response, setResponse }) {
      const withRun = serverContext as WithRun;
      const run = withRun[RUN];
      if (!run) return;
      withRun[RUN] = undefined;
      setResponse(await finish(run, response));
    },
  };
}

/** A server error or a rate limit: the client is to retry, so the answer is not one to replay. */
const asksForRetry = (status: number) => status === 429 || status >= 500;

function replay(record: IdempotencyRecord, { meaning, bytes }: Fingerprints): Response {
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

const inUse = () => apiError('idempotencyKeyInUse');

/** Answer to a keyed write whose writes were all undone: UNAVAILABLE, with this request's other headers. */
function nothingKept(api: Run['api'], headers: Headers): Response {
  const requestHeaders = new Headers(headers);
  for (const name of [...OUTCOME_HEADERS, 'content-length']) requestHeaders.delete(name);
  const error = apiError('nothingKept');
  if (api === 'rest') return errorResponse(error, Object.fromEntries(requestHeaders));
  requestHeaders.set('content-type', 'application/json; charset=utf-8');
  const body = JSON.stringify({ errors: [{ message: error.message, extensions: error.extensions }] });
  return new Response(body, { status: error.status, headers: requestHeaders });
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

const isResponse = (value: object): value is Response => 'status' in value && 'headers' in value;

/** The documents of a request's entries, by their text; one that does not parse is left out. */
function documentsOf(parsed: GraphQLParams | GraphQLParams[], documents: DocumentCache) {
  const found = new Map<string, DocumentNode>();
  for (const { query } of [parsed].flat()) {
    if (typeof query !== 'string') continue;
    const document = documents.documentOf(query);
    if (document) found.set(query, document);
  }
  return found;
}

function asGraphQLError(error: unknown): unknown {
  if (error instanceof ApiError) return toGraphQLError(error, { httpStatus: true });
  if (isDatabaseUnavailable(error))
    return toGraphQLError(apiError('databaseUnavailable'), { httpStatus: true });
  return error;
}
