import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import type { Caller } from '../contract/caller.ts';
import { graphqlRefusal } from '../contract/graphql-error.ts';
import {
  DOCUMENT_ID_PATTERN,
  DOCUMENT_ID_PREFIX,
  type TrustedDocumentsMode,
} from '../contract/trusted-documents.ts';
import type { Db } from '../db/client.ts';
import { findDocumentBody, hashDocument } from './repository.ts';

/** A registered document stays cached this long: `documents -- remove` takes effect within it. */
export const DOCUMENT_CACHE_TTL_MS = 60_000;

export interface TrustedDocumentsOptions {
  /** The registered texts (createDocumentFinder). */
  findDocument: FindDocument;
  /** The mode of callers without one of their own (TRUSTED_DOCUMENTS). */
  mode: TrustedDocumentsMode;
  /** Texts `allow` callers sent with Apollo's persisted-query hash, kept by this process (automatic ones). */
  automaticEntries?: number;
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
export function useTrustedDocuments({
  findDocument,
  mode,
  automaticEntries = 1_000,
}: TrustedDocumentsOptions): Plugin {
  // Apollo's automatic persisted queries, for `allow` callers only: a text an `allow` caller sent with its hash
  // runs by that hash from then on, for `allow` callers. It is never a trusted document: a `require` caller
  // runs only what `documents -- add` registered.
  const automatic = new LRUCache<string, string>({ max: automaticEntries });
  // The persisted-operations plugin asks whether text is allowed with the request alone.
  const modes = new WeakMap<Request, TrustedDocumentsMode>();
  // Requests that sent Apollo's `extensions.persistedQuery` rather than `documentId`: they get Apollo's codes.
  const apolloFormat = new WeakSet<Request>();
  const modeOf = (caller: Caller | undefined): TrustedDocumentsMode =>
    (caller?.kind === 'key' ? caller.trustedDocuments : null) ?? mode;

  const persisted = usePersistedOperations<CallerContext>({
    allowArbitraryOperations: (request) => modes.get(request) !== 'require',
    extractPersistedOperationId: (params, request) => {
      const id = documentIdOf(params, request);
      if (id === undefined) {
        const hash = apolloHashOf(params);
        if (hash === undefined) throw missing();
        apolloFormat.add(request);
        return checkedApolloHash(hash, modes.get(request));
      }
      if (modes.get(request) === 'off') {
        throw graphqlRefusal('trustedDocumentsOff');
      }
      if (typeof id !== 'string' || !DOCUMENT_ID_PATTERN.test(id)) {
        throw graphqlRefusal('documentIdMalformed');
      }
      return id.slice(DOCUMENT_ID_PREFIX.length);
    },
    getPersistedOperation: async (hash, request) => {
      const body = await findDocument(hash);
      if (body === null && apolloFormat.has(request) && modes.get(request) === 'allow') {
        return automatic.get(hash) ?? null;
      }
      return body;
    },
    customErrors: {
      notFound: ({ request }) =>
        apolloFormat.has(request)
          ? graphqlRefusal('persistedQueryNotFound')
          : graphqlRefusal('documentNotFound'),
      persistedQueryOnly: () => graphqlRefusal('registeredDocumentsOnly'),
      keyNotFound: missing,
    },
  });

  return {
    onParams(payload) {
      const callerMode = modeOf((payload.context as CallerContext).caller);
      modes.set(payload.request, callerMode);
      const { query } = payload.params;
      const hash = apolloHashOf(payload.params);
      // Apollo's retry after PERSISTED_QUERY_NOT_FOUND: the text with its hash, kept only if the hash is its own.
      if (typeof query === 'string' && hash !== undefined && callerMode === 'allow') {
        const hex = checkedApolloHash(hash, callerMode);
        if (hashDocument(query) !== hex) {
          throw graphqlRefusal('persistedHashMismatch');
        }
        automatic.set(hex, query);
      }
      return persisted.onParams?.(payload);
    },
    onParse: persisted.onParse,
    onValidate: persisted.onValidate,
  };
}

/** Apollo's `extensions.persistedQuery.sha256Hash` (version 1), from the POST body or a GET's `extensions`. */
function apolloHashOf(params: GraphQLParams): unknown {
  const persistedQuery = (params.extensions as { persistedQuery?: unknown } | undefined)?.persistedQuery;
  if (persistedQuery === null || typeof persistedQuery !== 'object') return undefined;
  const { version, sha256Hash } = persistedQuery as { version?: unknown; sha256Hash?: unknown };
  if (version !== 1) {
    throw graphqlRefusal('persistedQueryVersion');
  }
  return sha256Hash;
}

/** The lower-case hex of an Apollo hash, with or without `sha256:`; refused in `off` mode and when malformed. */
function checkedApolloHash(hash: unknown, callerMode: TrustedDocumentsMode | undefined): string {
  if (callerMode === 'off') {
    throw graphqlRefusal('persistedQueriesOff');
  }
  const hex = typeof hash === 'string' ? hash.replace(/^sha256:/, '') : '';
  if (!/^[0-9a-f]{64}$/.test(hex)) {
    throw graphqlRefusal('persistedHashMalformed');
  }
  return hex;
}

/** The documentId of a request, from the POST body or (GET) the query string; undefined when none was sent. */
function documentIdOf(params: GraphQLParams, request: Request): unknown {
  const inBody = (params as { documentId?: unknown }).documentId;
  if (inBody !== undefined && inBody !== null) return inBody;
  if (request.method !== 'GET') return undefined;
  return new URL(request.url).searchParams.get('documentId') ?? undefined;
}

const missing = () => graphqlRefusal('operationMissing');
