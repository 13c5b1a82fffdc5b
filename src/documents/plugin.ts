import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import type { Caller } from '../contract/caller.ts';
import { graphqlError } from '../contract/graphql-error.ts';
import {
  DOCUMENT_ID_PATTERN,
  DOCUMENT_ID_PREFIX,
  type TrustedDocumentsMode,
} from '../contract/trusted-documents.ts';
import type { Db } from '../db/client.ts';
import { findDocumentBody } from './repository.ts';

/** A registered document stays cached this long: `documents -- remove` takes effect within it. */
export const DOCUMENT_CACHE_TTL_MS = 60_000;

export interface TrustedDocumentsOptions {
  /** The registered texts (createDocumentFinder). */
  findDocument: FindDocument;
  /** The mode of callers without one of their own (TRUSTED_DOCUMENTS). */
  mode: TrustedDocumentsMode;
}

/** A registered document's text by its sha256 hex; null when none is registered. */
export type FindDocument = (hash: string) => Promise<string | null>;

/** Registered texts from the database, through a small LRU (`documents -- remove` takes effect within its TTL). */
export function createDocumentFinder(prisma: Db, cacheEntries = 1_000): FindDocument {
  const cache = new LRUCache<string, string>({ max: cacheEntries, ttl: DOCUMENT_CACHE_TTL_MS });
  return async (hash) => {
    const cached = cache.get(hash);
    if (cached !== undefined) return cached;
    // Not found is not cached: a document registered a moment later runs at once.
    const body = await findDocumentBody(prisma, hash);
    if (body !== null) cache.set(hash, body);
    return body;
  };
}

/** What this layer reads on the context Yoga hands to onParams: the caller, from the rate-limit layer. */
interface CallerContext {
  caller?: Caller;
}

/**
 * Trusted documents (docs/trusted-documents.md), on Yoga's persisted-operations plugin: a request may send
 * `documentId: "sha256:<hex>"` (POST body, or GET query parameter) instead of `query`; the text comes from the
 * database, through a small LRU. The caller's mode (its key's, else TRUSTED_DOCUMENTS) says what it may send:
 * `require` refuses text with DOCUMENT_NOT_TRUSTED (400), `off` refuses ids. Runs on the parsed parameters, after
 * the rate limit has counted the request, so an id costs what a text does, and every later stage (scopes, field
 * limits, mutations refused over GET) sees the stored operation as if its text had been sent.
 */
export function useTrustedDocuments({ findDocument, mode }: TrustedDocumentsOptions): Plugin {
  // The persisted-operations plugin asks whether text is allowed with the request alone.
  const modes = new WeakMap<Request, TrustedDocumentsMode>();
  const modeOf = (caller: Caller | undefined): TrustedDocumentsMode =>
    (caller?.kind === 'key' ? caller.trustedDocuments : null) ?? mode;

  const persisted = usePersistedOperations<CallerContext>({
    allowArbitraryOperations: (request) => modes.get(request) !== 'require',
    extractPersistedOperationId: (params, request) => {
      const id = documentIdOf(params, request);
      if (id === undefined) throw missing();
      if (modes.get(request) === 'off') {
        throw graphqlError(
          'DOCUMENT_NOT_TRUSTED',
          'Trusted documents are off for this caller: send the operation as `query` text',
          { httpStatus: true },
        );
      }
      if (typeof id !== 'string' || !DOCUMENT_ID_PATTERN.test(id)) {
        throw graphqlError(
          'VALIDATION_FAILED',
          `documentId: expected ${DOCUMENT_ID_PREFIX}<64 lower-case hex digits>, the sha256 of the registered text`,
          { httpStatus: true },
        );
      }
      return id.slice(DOCUMENT_ID_PREFIX.length);
    },
    getPersistedOperation: findDocument,
    customErrors: {
      notFound: () =>
        graphqlError(
          'DOCUMENT_NOT_FOUND',
          'No document is registered with this documentId: register it (npm run documents -- add), or send the text',
          { httpStatus: true },
        ),
      persistedQueryOnly: () =>
        graphqlError(
          'DOCUMENT_NOT_TRUSTED',
          'This caller may run registered documents only: send {"documentId": "sha256:<hex>"} instead of `query`',
          { httpStatus: true },
        ),
      keyNotFound: missing,
    },
  });

  return {
    onParams(payload) {
      modes.set(payload.request, modeOf((payload.context as CallerContext).caller));
      return persisted.onParams?.(payload);
    },
    onParse: persisted.onParse,
    onValidate: persisted.onValidate,
  };
}

/** The documentId of a request, from the POST body or (GET) the query string; undefined when none was sent. */
function documentIdOf(params: GraphQLParams, request: Request): unknown {
  const inBody = (params as { documentId?: unknown }).documentId;
  if (inBody !== undefined && inBody !== null) return inBody;
  if (request.method !== 'GET') return undefined;
  return new URL(request.url).searchParams.get('documentId') ?? undefined;
}

const missing = () =>
  graphqlError(
    'VALIDATION_FAILED',
    'Send the operation as `query` text, or as the `documentId` of a registered one',
    {
      httpStatus: true,
    },
  );
