// Whether an operation writes is decided once per parsed document, and a document is parsed once per text,
// shared with Yoga (contract/operations.ts).
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createDocumentCache, isMutation, mayWrite, operationKind } from '../../src/contract/operations.ts';

describe('the document cache', () => {
  it('parses a text once and hands the same document to every reader, Yoga included', () => {
    const documents = createDocumentCache(100);
    const text = 'mutation M { deletePet(id: 1) { id } } query Q { pets { edges { cursor } } }';
    const first = documents.documentOf(text);
    expect(documents.documentOf(text)).toBe(first);
    expect(documents.cache.get(text)).toBe(first);
  });

  it('keeps nothing of a text that does not parse or is over the token limit, so that Yoga refuses it', () => {
    const documents = createDocumentCache(10);
    expect(documents.documentOf('{ pets {')).toBeUndefined();
    const long = `{ ${'a '.repeat(20)}}`;
    expect(documents.documentOf(long)).toBeUndefined();
    expect(documents.cache.size).toBe(0);
  });
});

describe('operationKind', () => {
  const document = parse('mutation M { deletePet(id: 1) { id } } query Q { pets { edges { cursor } } }');

  it('tells the kind of the named operation, and undefined for a name the document lacks', () => {
    expect(operationKind(document, 'M')).toBe('mutation');
    expect(operationKind(document, 'Q')).toBe('query');
    expect(operationKind(document, 'X')).toBeUndefined();
    expect(isMutation(parse('mutation { deletePet(id: 1) { id } }'))).toBe(true);
  });

  it('says a request may write when an entry is a mutation or has no text yet (a documentId)', () => {
    const documents = createDocumentCache(100);
    const query = 'query Q { pets { edges { cursor } } } mutation M { deletePet(id: 1) { id } }';
    expect(mayWrite({ query, operationName: 'Q' }, documents)).toBe(false);
    expect(
      mayWrite(
        [
          { query, operationName: 'Q' },
          { query, operationName: 'M' },
        ],
        documents,
      ),
    ).toBe(true);
    expect(mayWrite({ documentId: 'sha256:00' } as never, documents)).toBe(true);
    expect(mayWrite({ query: 'mutation {' }, documents)).toBe(false);
  });
});
