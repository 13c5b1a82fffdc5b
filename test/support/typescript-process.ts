import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '../..');

/**
 * Node's arguments to run one of the project's TypeScript files (a path from the repository's root): Node with
 * tsx's loader, not the tsx command, which would be a parent process of the script's, so that killing the
 * child kills the script.
 */
export function typescriptArgs(file: string): string[] {
  return ['--import', pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href, join(root, file)];
}
