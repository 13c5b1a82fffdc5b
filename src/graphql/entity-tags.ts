import { createHash } from 'node:crypto';
import { isPromise, type MaybePromise } from '@whatwg-node/promise-helpers';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { Caller } from '../contract/caller.ts';
import type { Validator } from '../contract/http-caching.ts';
import type { TableVersions } from '../db/store-version.ts';
import type { ReadTableVersions } from '../db/table-versions.ts';
import { type CachePolicy, cachePolicyOf } from './cache-policy.ts';

export interface EntityTagOptions {
  schema: GraphQLSchema;
  readTableVersions: ReadTableVersions;
  /** Changes whenever answers change without the store (a sunset passed); part of every tag. */
  epoch: () => number;
  /** Names what the same request and data answer with (the schema, the gateway's version); part of every tag. */
  build: string;
}

/** One read, as its tag sees it. */
export interface TaggedRead {
  document: DocumentNode;
  /** Everything of the request that shapes the answer besides the data: its URL, media type, and so on. */
  request: string;
  caller: Caller;
}

/** The validator of a read's answer, made before it runs; undefined when the answer is never kept. */
export type TagRead = (read: TaggedRead) => MaybePromise<Validator | undefined>;

/**
 * Entity tags made of the database's change counters of the tables a read depends on, which every process
 * sees alike, and of the request: equal tags mean an equal answer, in any gateway process. Read before the
 * operation runs, so that a write committed meanwhile leaves the answer's tag behind and the next request
 * gets the new data. The caller's own answers (`private`) carry who asked, and the key table's counter (its
 * scopes and mode may change).
 */
export function createEntityTags({ schema, readTableVersions, epoch, build }: EntityTagOptions): TagRead {
  const policies = new WeakMap<DocumentNode, CachePolicy>();
  const policyOf = (document: DocumentNode) => {
    let policy = policies.get(document);
    if (!policy) {
      policy = cachePolicyOf(document, schema);
      policies.set(document, policy);
    }
    return policy;
  };

  return ({ document, request, caller }) => {
    const { scope, tables } = policyOf(document);
    if (scope === 'no-store') return undefined;
    const tagOf = (versions: TableVersions | undefined): Validator | undefined => {
      if (!versions) return undefined;
      const hash = createHash('sha1').update(`${build}\n${epoch()}\n${request}\n`);
      if (scope === 'private') hash.update(`${callerOf(caller)}\nApiKey=${versions.get('ApiKey')}\n`);
      const read = tables === 'all' ? [...versions.keys()].sort() : tables;
      for (const table of read) hash.update(`${table}=${versions.get(table)}\n`);
      return { tag: `W/"${hash.digest('base64url')}"`, scope };
    };
    const versions = readTableVersions();
    return isPromise(versions) ? versions.then(tagOf) : tagOf(versions);
  };
}

const callerOf = (caller: Caller) => (caller.kind === 'key' ? `key:${caller.keyId}` : `ip:${caller.ip}`);

/** A build's identity, from what shapes its answers (the printed schema, the OpenAPI document): equal across its processes. */
export const buildIdentity = (...parts: string[]) =>
  createHash('sha1').update(parts.join('\n')).digest('base64url');
