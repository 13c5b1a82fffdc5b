import {
  BREAK,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  getOperationAST,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import type { Context } from '../context.ts';

export interface ResponseCacheOptions {
  /**
   * A number that differs from the one read before whenever the store may have changed since, whoever
   * changed it (this process, another gateway process, a script).
   */
  storeVersion: () => number;
  /** Results kept, the least recently used going first. */
  maxEntries: number;
  /** Told of each lookup (metrics). */
  onLookup?: (hit: boolean) => void;
}

interface Entry {
  storeVersion: number;
  result: ExecutionResult;
}

/**
 * The schema's mark on a field whose value is not a function of the store alone (the caller's quota, key, key list and own orders): put
 * `extensions: { [CALLER_DEPENDENT]: true }` on it, and no result that selects it is kept or shared.
 */
export const CALLER_DEPENDENT = 'callerDependent';
export const callerDependent = { [CALLER_DEPENDENT]: true } as const;

/**
 * Answers a query operation (GraphQL, or a REST route's) from memory while the store version read before it first
 * executed has not moved, so no committed write is ever hidden and no time-to-live is needed (docs/database.md).
 * Not @envelop/response-cache: it invalidates by the entities a mutation returns, which misses side effects and
 * other processes' writes.
 */
export function useResponseCache({
  storeVersion,
  maxEntries,
  onLookup,
}: ResponseCacheOptions): Plugin<Context> {
  const entries = new LRUCache<string, Entry>({ max: maxEntries });
  // Yoga's parse cache and the REST routes hand the same document object for the same text.
  const documentIds = new WeakMap<DocumentNode, string | null>();
  let lastDocumentId = 0;
  let lastStoreVersion: number | undefined;

  function documentId(document: DocumentNode, schema: GraphQLSchema): string | null {
    let id = documentIds.get(document);
    if (id === undefined) {
      id = readsCallerState(document, schema) ? null : String(++lastDocumentId);
      documentIds.set(document, id);
    }
    return id;
  }

  return {
    onExecute({ args, setResultAndStopExecution }) {
      // A query batched with a keyed write reads that write's transaction, whose changes may yet be undone
      // (a rollback leaves the store version where it was).
      if (args.contextValue.transaction) return;
      const id = documentId(args.document, args.schema);
      if (id === null || getOperationAST(args.document, args.operationName)?.operation !== 'query') return;
      const version = storeVersion();
      if (version !== lastStoreVersion) {
        entries.clear();
        lastStoreVersion = version;
      }
      const key = `${id}:${args.operationName ?? ''}:${variablesKey(args.variableValues)}`;
      const entry = entries.get(key);
      const hit = entry?.storeVersion === version;
      onLookup?.(hit);
      if (hit) {
        setResultAndStopExecution({ ...(entry as Entry).result });
        return;
      }
      return {
        onExecuteDone({ result }) {
          if (Symbol.asyncIterator in result || result.errors?.length) return;
          entries.set(key, { storeVersion: version, result });
        },
      };
    },
  };
}

// REST routes hand Int64 parameters over as BigInts (GraphQL requests never do): a BigInt is keyed as the string
// of its digits, which a client may also send for an Int64, and which Int64 reads as the same value.
const variablesKey = (variables: unknown) =>
  JSON.stringify(variables ?? {}, (_name, value) => (typeof value === 'bigint' ? String(value) : value));

function readsCallerState(document: DocumentNode, schema: GraphQLSchema): boolean {
  const typeInfo = new TypeInfo(schema);
  let found = false;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field() {
        if (!typeInfo.getFieldDef()?.extensions?.[CALLER_DEPENDENT]) return;
        found = true;
        return BREAK;
      },
    }),
  );
  return found;
}
