import type { Response } from '@whatwg-node/fetch';
import type { GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config/index.ts';
import { readBody } from '../contract/body-limit.ts';
import type { Caller } from '../contract/caller.ts';
import { isGraphQLPath } from '../contract/endpoints.ts';
import { type DocumentCache, mayWrite } from '../contract/operations.ts';
import type { Database } from '../db/client.ts';
import type { HeldTransaction } from '../db/held-transaction.ts';
import type { Logger } from '../observability/logger.ts';
import { keyClaims, type Run } from './claim.ts';
import { type Fingerprints, graphqlFingerprints, restFingerprints } from './fingerprints.ts';
import { IDEMPOTENCY_KEY_HEADER, readIdempotencyKey } from './key.ts';
import { asksForRetry, recordOutcomes } from './outcome.ts';
import type { RecordId } from './records.ts';
import { refusalGraphQLError, refusalResponse } from './refusals.ts';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

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

const RUN = Symbol('idempotent run');
type WithRun = { [RUN]?: Run };

/**
 * Idempotent writes (docs/idempotency.md). A REST write or a GraphQL mutation request sent with an
 * Idempotency-Key by an API key runs in one transaction held across the request; its response is recorded in
 * that same transaction, so the write and the record commit together or not at all. A repeat (same API key,
 * key, method, target and body) within IDEMPOTENCY_RETENTION_MS is answered the recorded response, with
 * `Idempotent-Replayed: true`, and runs nothing.
 *
 * This wires the steps into Yoga: the key is claimed (claim.ts) once the request's fingerprints are known
 * (fingerprints.ts), a repeat is replayed (replay.ts), a first request's outcome is recorded (outcome.ts), and a
 * request refused on the way is answered as its API answers refusals (refusals.ts).
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
  const claim = keyClaims({ db, now });
  const finish = recordOutcomes({ log, now, limits });

  /**
   * Begins a keyed request: the response to replay, or undefined with the request's transaction on the server
   * context. Refuses (throws) IDEMPOTENCY_KEY_IN_USE and IDEMPOTENCY_KEY_REUSED.
   */
  async function enter(
    serverContext: IdempotentContext & WithRun,
    id: RecordId,
    api: Run['api'],
    fingerprintsOf: () => Promise<Fingerprints>,
  ): Promise<Response | undefined> {
    const claimed = await claim(id, api, fingerprintsOf);
    if (!('transaction' in claimed)) return claimed;
    serverContext.transaction = claimed.transaction;
    serverContext[RUN] = claimed;
    return undefined;
  }

  const refusal = (error: unknown) => refusalResponse(error, log);

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
        // The body is read once: what runs is a request carrying the bytes read here.
        setRequest(
          new fetchAPI.Request(request.url, { method, headers, body: body.byteLength ? body : null }),
        );
        return restFingerprints(method, url, body, await restMeaning(request, url, body));
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
          const operations = async () => graphqlFingerprints(schema, url, parsed, documents);
          return (await enter(serverContext, id, 'graphql', operations)) ?? parsed;
        } catch (error) {
          throw refusalGraphQLError(error);
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

const isResponse = (value: object): value is Response => 'status' in value && 'headers' in value;
