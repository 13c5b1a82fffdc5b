import Sqlite from 'better-sqlite3';

export interface StoreVersionWatcher {
  /** Changes whenever a change to the store may have been committed since it was last read, by anyone. */
  storeVersion(): number;
  /**
   * Each table's change counter (the TableVersion table, raised by triggers), at least as recent as the store
   * version read before it; undefined when the database cannot tell tables apart (not migrated yet, or a table
   * lacks its triggers), so that any change counts as a change to every table.
   */
  tableVersions(): TableVersions | undefined;
  close(): void;
}

/** Change counters by table (Prisma model) name. */
export type TableVersions = ReadonlyMap<string, number>;

/**
 * SQLite's data_version, read on a connection of its own that never writes: it changes with every commit of
 * any other connection, this process's Prisma connection included, and costs little to read. The
 * per-table counters are read only after it moved.
 */
export function watchStoreVersion(file: string): StoreVersionWatcher {
  const watcher = new Sqlite(file, { readonly: true, fileMustExist: true });
  const dataVersion = watcher.prepare<[], number>('PRAGMA data_version').pluck();
  // Prepared on first use: the database may be opened before it is migrated.
  let readCounters: (() => TableVersions | undefined) | undefined;

  function prepareCounters(): (() => TableVersions | undefined) | undefined {
    if (!everyTableCounted(watcher)) return undefined;
    const counters = watcher.prepare<[], { name: string; version: number }>(
      'SELECT "name", "version" FROM "TableVersion"',
    );
    return () => new Map(counters.all().map(({ name, version }) => [name, version]));
  }

  return {
    storeVersion: () => dataVersion.get() as number,
    tableVersions: () => {
      readCounters ??= prepareCounters();
      return readCounters?.();
    },
    close: () => watcher.close(),
  };
}

/** Whether every table of the store has its counter and its three triggers (a table redefined by a later migration loses them). */
function everyTableCounted(db: Sqlite.Database): boolean {
  const has = (sql: string) => db.prepare(sql).pluck().get() as number;
  if (!has(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'TableVersion'`)) return false;
  const uncounted = has(`SELECT count(*) FROM sqlite_master AS t WHERE t.type = 'table' 
    -- Not the store's: SQLite's own tables, Prisma's migration history, the counters themselves.
    AND t.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND t.name NOT IN ('_prisma_migrations', 'TableVersion')
    AND (NOT EXISTS (SELECT 1 FROM "TableVersion" AS v WHERE v."name" = t.name)
      OR (SELECT count(*) FROM sqlite_master AS g WHERE g.type = 'trigger' AND g.tbl_name = t.name
            AND g.name IN (t.name || '_insert_version', t.name || '_update_version', t.name || '_delete_version')) < 3)`);
  return uncounted === 0;
}
