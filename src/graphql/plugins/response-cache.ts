import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { operationKind } from '../../contract/operations.ts';
import { cachePolicyOf, type Dependencies } from '../cache-policy.ts';
import type { Context } from '../context.ts';

export interface ResponseCacheOptions {
  /**
   * A number that differs from the one read before whenever the store may have changed since, whoever
   * changed it (this process, another gateway process, a script). Read before every lookup: it must be cheap.
   */
  storeVersion: () => number;
  /**
   * Each table's change counter, read only after the store version moved, and at least as recent as it. Without
   * it, or when it answers undefined, or when the store version moved with no counter, every kept result is
   * dropped (a change the counters do not tell).
   */
  tableVersions?: () => ReadonlyMap<string, number> | undefined;
  /** A number whose every change drops every kept result: a change that is not the store's (a sunset passed). */
  epoch?: () => number;
  /** Results kept, the least recently used going first. */
  maxEntries: number;
  /** Told of each lookup (metrics). */
  onLookup?: (hit: boolean) => void;
}

interface Entry {
  /** `changes` when the result was read, for a result that depends on all tables. */
  changes: number;
  /** `resets` when the result was read. */
  resets: number;
  /** The counters of its tables when it was read, in the order of the document's dependencies. */
  versions: readonly (number | undefined)[];
  result: ExecutionResult;
}

/**
 * Answers a query operation (GraphQL, or a REST route's) from memory while no table it read from has changed
 * since it first executed, so no committed write is ever hidden and no time-to-live is needed
 * (docs/database.md). The store version is checked first (about a microsecond); only when it moved are the
 * per-table counters read, and a result is dropped only when a table that its document selects (the schema
 * says which) changed: an order placed leaves cached pets in place. Not @envelop/response-cache: it invalidates
 * by the entities a mutation returns, which misses side effects and other processes' writes.
 */
export function useResponseCache({
  storeVersion,
  tableVersions,
  epoch = () => 0,
  maxEntries,
  onLookup,
}: ResponseCacheOptions): Plugin<Context> {
  const entries = new LRUCache<string, Entry>({ max: maxEntries });
  // Yoga's parse cache and the REST routes hand the same document object for the same text.
  const documents = new WeakMap<DocumentNode, { id: string; dependencies: Dependencies } | null>();
  let lastDocumentId = 0;
  let lastStoreVersion: number | undefined;
  let lastEpoch: number | undefined;
  let lastTables: ReadonlyMap<string, number> | undefined;
  // Raised when any table changed, and when the store changed in a way the counters do not tell.
  let changes = 0;
  let resets = 0;

  function documentOf(document: DocumentNode, schema: GraphQLSchema) {
    let known = documents.get(document);
    if (known === undefined) {
      const dependencies = dependenciesOf(document, schema);
      known = dependencies === null ? null : { id: String(++lastDocumentId), dependencies };
      documents.set(document, known);
    }
    return known;
  }

  /** Catches up with the store: counts the changes since the last lookup. */
  function observeStore(): void {
    const version = storeVersion();
    const era = epoch();
    if (version === lastStoreVersion && era === lastEpoch) return;
    const tables = tableVersions?.();
    changes++;
    if (era !== lastEpoch || !tables || !lastTables || !someChanged(lastTables, tables)) {
      resets++;
      entries.clear();
    }
    lastStoreVersion = version;
    lastEpoch = era;
    lastTables = tables;
  }

  function versionsOf(dependencies: Dependencies): (number | undefined)[] {
    return dependencies === 'all' ? [] : dependencies.map((table) => lastTables?.get(table));
  }

  function current(entry: Entry | undefined, dependencies: Dependencies): entry is Entry {
    if (!entry || entry.resets !== resets) return false;
    if (dependencies === 'all') return entry.changes === changes;
    // A table without a counter is never current.
    return dependencies.every((table, i) => {
      const version = lastTables?.get(table);
      return version !== undefined && version === entry.versions[i];
    });
  }

  return {
    onExecute({ args, setResultAndStopExecution }) {
      // A query batched with a keyed write reads that write's transaction, whose changes may yet be undone
      // (a rollback leaves the store version where it was).
      if (args.contextValue.transaction) return;
      const document = documentOf(args.document, args.schema);
      if (document === null || operationKind(args.document, args.operationName) !== 'query') return;
      observeStore();
      const key = `${document.id}:${args.operationName ?? ''}:${variablesKey(args.variableValues)}`;
      const entry = entries.get(key);
      const hit = current(entry, document.dependencies);
      onLookup?.(hit);
      if (hit) {
        setResultAndStopExecution({ ...entry.result });
        return;
      }
      // The versions before executing: a write committed while the query runs leaves the result behind them.
      const read = { changes, resets, versions: versionsOf(document.dependencies) };
      return {
        onExecuteDone({ result }) {
          if (Symbol.asyncIterator in result || result.errors?.length) return;
          entries.set(key, { ...read, result });
        },
      };
    },
  };
}

function someChanged(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>): boolean {
  for (const [table, version] of after) if (before.get(table) !== version) return true;
  return false;
}

// REST routes hand Int64 parameters over as BigInts (GraphQL requests never do): a BigInt is keyed as the string
// of its digits, which a client may also send for an Int64, and which Int64 reads as the same value.
const variablesKey = (variables: unknown) =>
  JSON.stringify(variables ?? {}, (_name, value) => (typeof value === 'bigint' ? String(value) : value));

/**
 * The tables a document's results are read from (cache-policy.ts); null when it selects a field whose answers
 * are not public (the caller's quota, key, key list and own orders), whose results are never kept.
 */
export function dependenciesOf(document: DocumentNode, schema: GraphQLSchema): Dependencies | null {
  const { scope, tables } = cachePolicyOf(document, schema);
  return scope === 'public' ? tables : null;
}
