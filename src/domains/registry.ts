import { EventEmitter } from 'node:events';
import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { type DomainsConfig, readDomainsConfigFile } from './config.ts';

export interface DomainsLog {
  info(message: string): void;
  error(message: string): void;
}

export interface DomainsRegistryOptions {
  /** Editors write a file in several steps; the reload waits this long after the last change. */
  debounceMs?: number;
  log?: DomainsLog;
}

/**
 * Holds the current domains configuration of one file. `reload()` swaps it for the file's new content in one
 * assignment, so a request sees either the old or the new configuration; an invalid file is logged and the
 * previous configuration stays. `watch()` reloads on SIGHUP and when the file changes.
 */
export class DomainsRegistry extends EventEmitter<{ reload: [DomainsConfig] }> {
  #config: DomainsConfig;
  #watcher: FSWatcher | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #debounceMs: number;
  readonly #log: DomainsLog;
  readonly #reloadNow = () => {
    this.reload();
  };

  /** Throws a DomainsConfigError when the file is missing or invalid: a bad start-up configuration is fatal. */
  constructor(
    readonly path: string,
    { debounceMs = 100, log = console }: DomainsRegistryOptions = {},
  ) {
    super();
    this.#config = readDomainsConfigFile(path);
    this.#debounceMs = debounceMs;
    this.#log = log;
  }

  get current(): DomainsConfig {
    return this.#config;
  }

  /** Returns whether the file's content was accepted. */
  reload(): boolean {
    try {
      this.#config = readDomainsConfigFile(this.path);
    } catch (error) {
      this.#log.error(`${(error as Error).message}\nKeeping the previous domains configuration.`);
      return false;
    }
    this.#log.info(`Domains configuration reloaded from ${this.path}`);
    this.emit('reload', this.#config);
    return true;
  }

  watch(): this {
    process.on('SIGHUP', this.#reloadNow);
    // The directory is watched, not the file: saving by rename replaces the file a file watch would follow.
    this.#watcher = watch(dirname(this.path), (_event, filename) => {
      if (filename !== basename(this.path)) return;
      clearTimeout(this.#timer);
      this.#timer = setTimeout(this.#reloadNow, this.#debounceMs);
    });
    return this;
  }

  close(): void {
    process.off('SIGHUP', this.#reloadNow);
    this.#watcher?.close();
    clearTimeout(this.#timer);
  }
}
