import { getOperationAST, Kind, parse } from 'graphql';

const META_FIELDS = new Set(['__schema', '__type', '__typename']);
// GraphiQL's full introspection query is about 200 tokens. A longer text is not parsed here: it pays the plan.
const MAX_TOKENS = 2_000;

/**
 * Whether the operation a GraphQL GET names reads only the schema: a query whose every root field is
 * `__schema`, `__type` or `__typename`, written as fields (a fragment at the root counts as not). Such an
 * operation has its own budget; anything else, or any text that does not parse, pays the plan's.
 */
export function isIntrospectionOnly(query: string | null, operationName: string | null): boolean {
  if (!query?.includes('__')) return false;
  try {
    const operation = getOperationAST(
      parse(query, { noLocation: true, maxTokens: MAX_TOKENS }),
      operationName,
    );
    return (
      operation?.operation === 'query' &&
      operation.selectionSet.selections.every(
        (selection) => selection.kind === Kind.FIELD && META_FIELDS.has(selection.name.value),
      )
    );
  } catch {
    return false;
  }
}

/** The same, for a GraphQL GET's URL (`query` and `operationName` parameters). */
export function isIntrospectionOnlyGet(request: Request): boolean {
  if (request.method !== 'GET') return false;
  const { searchParams } = new URL(request.url);
  return isIntrospectionOnly(searchParams.get('query'), searchParams.get('operationName'));
}
