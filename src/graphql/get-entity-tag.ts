import { type DocumentNode, parse } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { TagRequest } from '../contract/http-caching.ts';
import { DOCUMENT_ID_PATTERN, DOCUMENT_ID_PREFIX } from '../contract/trusted-documents.ts';
import type { TagRead } from './entity-tags.ts';

/**
 * A GraphQL GET (a query as text or a trusted documentId in the URL) is tagged by its document, its URL's
 * parameters as sent, the media type it asks for, and the caller's trusted-documents mode (which decides
 * whether it may send what it sent). A POST is never tagged.
 */
export function graphqlGetEntityTags(
  tagRead: TagRead,
  findDocument: (hash: string) => Promise<string | null>,
  maxTokens: number,
): TagRequest {
  const documents = new LRUCache<string, DocumentNode | false>({ max: 1_000 });
  function documentOf(text: string): DocumentNode | undefined {
    let document = documents.get(text);
    if (document === undefined) {
      try {
        document = parse(text, { noLocation: true, maxTokens });
      } catch {
        // Yoga answers it with its error, which is never tagged.
        document = false;
      }
      documents.set(text, document);
    }
    return document || undefined;
  }

  return (request, url) => {
    if (request.method !== 'GET') return undefined;
    const query = url.searchParams.get('query');
    const documentId = url.searchParams.get('documentId');
    if (query === null && documentId === null) return undefined;
    const identity = `${url.search}\n${request.headers.get('accept') ?? ''}`;
    return (caller) => {
      const mode = caller.kind === 'key' ? (caller.trustedDocuments ?? '') : '';
      const tag = (document: DocumentNode | undefined) =>
        document && tagRead({ document, request: `${identity}\n${mode}`, caller });
      // As the trusted-documents stage does, an id wins over text.
      if (documentId === null) return tag(documentOf(query ?? ''));
      if (!DOCUMENT_ID_PATTERN.test(documentId)) return undefined;
      return findDocument(documentId.slice(DOCUMENT_ID_PREFIX.length)).then(
        (text) => tag(text === null ? undefined : documentOf(text)),
        () => undefined,
      );
    };
  };
}
