import { type DocumentNode, getOperationAST, type OperationTypeNode, parse } from 'graphql';
import type { GraphQLParams } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';

/**
 * The parsed GraphQL documents, one object per text, and what each operation is. It is Yoga's document cache
 * (`parserAndValidationCache.documentCache`), so a document the idempotency layer reads before Yoga parses (to
 * tell a keyed write) is the one Yoga then runs, and the key check, the response cache and idempotency decide
 * whether an operation writes on the same object, once (`operationKind` keeps the answer per document).
 */
export interface DocumentCache {
  /** Handed to Yoga, which reads and fills it. */
  cache: LRUCache<string, DocumentNode>;
  /**
   * The document of `text`, parsed now (and kept for Yoga) when no one has yet; undefined when it does not parse
   * or has more tokens than the limit: Yoga then parses it and refuses it in its own words.
   */
  documentOf(text: string): DocumentNode | undefined;
}

export function createDocumentCache(maxTokens: number): DocumentCache {
  // Yoga's own default size and lifetime.
  const cache = new LRUCache<string, DocumentNode>({ max: 1024, ttl: 3_600_000 });
  return {
    cache,
    documentOf(text) {
      let document = cache.get(text);
      if (document) return document;
      try {
        // As Yoga parses (locations kept for error messages), with the token limit graphql-armor applies there.
        document = parse(text, { maxTokens });
      } catch {
        return undefined;
      }
      cache.set(text, document);
      return document;
    },
  };
}

const kinds = new WeakMap<DocumentNode, Map<string, OperationTypeNode | undefined>>();

/** Which kind of operation `operationName` (or the only one) of a document is; undefined when none is. */
export function operationKind(
  document: DocumentNode,
  operationName?: string | null,
): OperationTypeNode | undefined {
  let byName = kinds.get(document);
  if (!byName) {
    byName = new Map();
    kinds.set(document, byName);
  }
  const name = operationName ?? '';
  if (!byName.has(name)) byName.set(name, getOperationAST(document, operationName)?.operation);
  return byName.get(name);
}

export const isMutation = (document: DocumentNode, operationName?: string | null) =>
  operationKind(document, operationName) === 'mutation';

/**
 * Whether a GraphQL request may write: an entry runs a mutation, or has no text to read (a `documentId`, whose
 * text comes later). An entry whose text does not parse writes nothing: Yoga refuses it.
 */
export function mayWrite(parsed: GraphQLParams | GraphQLParams[], documents: DocumentCache): boolean {
  return [parsed].flat().some(({ query, operationName }) => {
    if (typeof query !== 'string') return true;
    const document = documents.documentOf(query);
    return document !== undefined && isMutation(document, operationName);
  });
}
