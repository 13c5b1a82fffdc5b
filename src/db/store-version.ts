import Sqlite from 'better-sqlite3';

export interface StoreVersionWatcher {
  /** Changes whenever a change to the store may have been committed since it was last read, by anyone. */
  storeVersion(): number;
  close(): void;
}

/**
 * SQLite's data_version, read on a connection of its own that never writes: it changes with every commit of
 * any other connection, this process's Prisma connection included, for about a microsecond per read.
 */
export function watchStoreVersion(file: string): StoreVersionWatcher {
  const watcher = new Sqlite(file, { readonly: true, fileMustExist: true });
  const dataVersion = watcher.prepare<[], number>('PRAGMA data_version').pluck();
  return { storeVersion: () => dataVersion.get() as number, close: () => watcher.close() };
}
