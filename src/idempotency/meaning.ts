import { type DocumentNode, type GraphQLSchema, getOperationAST, getVariableValues, print } from 'graphql';
import type { GraphQLParams } from 'graphql-yoga';
import { canonicalJson } from '../contract/json.ts';

/**
 * A GraphQL request as it will run, so that a repeat is compared by meaning rather than bytes: each entry's
 * document printed from its syntax tree (spacing and commas do not count), its variables coerced by the
 * operation's variable types (`"1"` and `1` are the same Int64; defaults filled in), and every object's keys
 * sorted. An entry this cannot read (no query text, a syntax error, variables its types refuse) is kept as
 * sent, keys sorted: it is refused before it runs, so its record is never kept anyway.
 */
export function graphqlMeaning(
  schema: GraphQLSchema,
  parsed: GraphQLParams | GraphQLParams[],
  documents: ReadonlyMap<string, DocumentNode>,
): string {
  const entries = [parsed].flat().map((params) => {
    const document = typeof params.query === 'string' ? documents.get(params.query) : undefined;
    if (!document) return params;
    const operation = getOperationAST(document, params.operationName);
    const coerced = operation
      ? getVariableValues(schema, operation.variableDefinitions ?? [], params.variables ?? {})
      : undefined;
    return {
      query: print(document),
      operationName: params.operationName ?? null,
      variables: coerced?.coerced ?? params.variables ?? null,
      extensions: params.extensions ?? null,
    };
  });
  return canonicalJson(Array.isArray(parsed) ? entries : entries[0]);
}
