import type { MaybePromise } from '@whatwg-node/promise-helpers';
import type pg from 'pg';
import type { StoreVersionWatcher, TableVersions } from './store-version.ts';

/**
 * Reads each table's change counter (the TableVersion table) as committed now, whichever process wrote: what
 * an HTTP entity tag is made of. Undefined when the database cannot tell (not migrated yet).
 */
export type ReadTableVersions = () => MaybePromise<TableVersions | undefined>;

/** SQLite: the counters read again only when the store version moved, which every commit of anyone's does. */
export function sqliteTableVersions(watcher: StoreVersionWatcher): ReadTableVersions {
  let readAt: number | undefined;
  let last: TableVersions | undefined;
  return () => {
    const version = watcher.storeVersion();
    if (version !== readAt || last === undefined) {
      last = watcher.tableVersions();
      readAt = version;
    }
    return last;
  };
}

/** PostgreSQL: one prepared statement on the pool, per read (a committed write is seen by the next read). */
export function postgresTableVersions(pool: pg.Pool, schema: string): ReadTableVersions {
  const query = {
    name: 'petstore-table-versions',
    text: `SELECT "name", "version" FROM "${schema}"."TableVersion"`,
  };
  return async () => {
    try {
      const { rows } = await pool.query<{ name: string; version: number }>(query);
      return new Map(rows.map(({ name, version }) => [name, version]));
    } catch (error) {
      // Not migrated yet: nothing is tagged.
      if ((error as { code?: string }).code === '42P01') return undefined;
      throw error;
    }
  };
}
