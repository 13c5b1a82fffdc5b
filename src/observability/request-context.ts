import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Which part of the gateway answered a request, for its log line and its metrics. */
export type Api = 'graphql' | 'rest' | 'ops' | 'other';

export interface RequestContext {
  /** Returned as X-Request-Id and written in the request's log line. */
  id: string;
  api: Api;
  /** The GraphQL operation name, REST operationId, or ops path. */
  operation: string;
  /** The API key the request was counted against, for the key's usage page. */
  keyId?: bigint;
  /** Why the rate-limit layer answered 429 (`minute`, `day`, `banned`, `introspection`, `operation`). */
  refusal?: string;
}

// On the request itself rather than in a WeakMap: a WeakMap entry per short-lived request is extra work for
// every collection of the young generation.
const CONTEXT = Symbol('request context');
type WithContext = IncomingMessage & { [CONTEXT]?: RequestContext };

// Ids from load balancers and tracing systems (UUIDs, AWS trace ids, W3C trace ids) fit; anything else
// could forge log lines or bloat them, and is replaced.
const WELL_FORMED_ID = /^[\w.:=+/-]{1,128}$/;

/** Starts a request's context: its id is the caller's X-Request-Id when well-formed, else a new UUID. */
export function openRequestContext(req: IncomingMessage): RequestContext {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && WELL_FORMED_ID.test(given) ? given : randomUUID();
  const context: RequestContext = { id, api: 'other', operation: 'unmatched' };
  (req as WithContext)[CONTEXT] = context;
  return context;
}

/**
 * Names the operation a request runs, for its log line and the metrics' `api` and `operation` labels.
 * The GraphQL layer calls it with the operation name, the REST adapter with the operationId.
 */
export function nameOperation(req: IncomingMessage | undefined, api: Api, operation: string): void {
  const context = (req as WithContext | undefined)?.[CONTEXT];
  if (!context) return;
  context.api = api;
  context.operation = operation;
}

export function requestContextOf(req: IncomingMessage | undefined): RequestContext | undefined {
  return (req as WithContext | undefined)?.[CONTEXT];
}

/** Notes the API key a request was counted against and, when it was refused 429, why. */
export function noteCaller(req: unknown, keyId: bigint, refusal?: string): void {
  const context = (req as WithContext | undefined)?.[CONTEXT];
  if (!context) return;
  context.keyId = keyId;
  context.refusal = refusal;
}
