import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';

type Results = WeakMap<DocumentNode, readonly Error[]>;

/**
 * Remembers each parsed document's validation result, per schema, in place of Yoga's validation cache, whose key
 * maps every validation rule to its name and joins them on every request (docs/performance.md, "Figures behind
 * the code"). This server validates every request with the same rules (graphql-armor adds its two
 * afresh each time, as new functions), so their number stands in for them in the key: a rule set that did change
 * would miss rather than reuse another's results. Yoga's document cache hands out one AST per query text.
 */
export function useValidationCache(): Plugin {
  const bySchema = new WeakMap<GraphQLSchema, Map<number, Results>>();
  return {
    onValidate({ params: { schema, documentAST, rules }, setResult }) {
      let byRules = bySchema.get(schema);
      if (!byRules) {
        byRules = new Map();
        bySchema.set(schema, byRules);
      }
      const ruleCount = rules?.length ?? 0;
      let results = byRules.get(ruleCount);
      if (!results) {
        results = new WeakMap();
        byRules.set(ruleCount, results);
      }
      const cached = results.get(documentAST);
      if (cached) {
        setResult(cached);
        return;
      }
      return ({ result }) => {
        results.set(documentAST, result);
      };
    },
  };
}
