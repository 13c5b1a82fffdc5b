import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { GraphQLParams } from 'graphql-yoga';
import type { DocumentCache } from '../contract/operations.ts';
import { fingerprint } from './key.ts';
import { graphqlMeaning } from './meaning.ts';

/**
 * What a repeat must match: the fingerprint of the request's meaning, which its record keeps, and the one of its
 * bytes as the records written before meanings were compared keep it (for a day after the upgrade).
 */
export interface Fingerprints {
  meaning: string;
  bytes: string;
}

/** A REST write's: `meaning` is undefined for a write REST would refuse, which then matches by its bytes. */
export function restFingerprints(
  method: string,
  url: URL,
  body: Uint8Array<ArrayBuffer>,
  meaning: string | undefined,
): Fingerprints {
  const bytes = fingerprint(`${method} ${url.pathname}${url.search}`, body);
  return { meaning: meaning === undefined ? bytes : fingerprint('REST', meaning), bytes };
}

/** A GraphQL request's, from its parsed body and the documents Yoga will run. */
export function graphqlFingerprints(
  schema: GraphQLSchema,
  url: URL,
  parsed: GraphQLParams | GraphQLParams[],
  documents: DocumentCache,
): Fingerprints {
  return {
    meaning: fingerprint('GraphQL', graphqlMeaning(schema, parsed, documentsOf(parsed, documents))),
    bytes: fingerprint(`POST ${url.pathname}`, JSON.stringify(parsed)),
  };
}

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
