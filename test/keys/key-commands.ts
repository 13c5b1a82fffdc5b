import { loadRateLimitConfig } from '../../src/config/rate-limits.ts';
import type { DatabaseOptions } from '../../src/db/client.ts';
import { parseApiKeyCommand, runApiKeyCommand } from '../../src/keys/commands.ts';
import { createKeyLookup } from '../../src/keys/lookup.ts';
import { createTestDatabase } from '../support/databases.ts';
import { perFile } from '../support/per-file.ts';

/**
 * A file's database for the `npm run apikey` tests: `run` runs a command as the CLI would (its output lines), and
 * `lookUp` reads a key as the gateway would, uncached.
 */
export function useKeyCommands(options: DatabaseOptions = {}) {
  const database = perFile(
    () => createTestDatabase(options),
    (started) => started.drop(),
  );
  return {
    database,
    run: (...argv: string[]) =>
      runApiKeyCommand(parseApiKeyCommand(argv), database.db.prisma, loadRateLimitConfig({})),
    lookUp: (key: string) => createKeyLookup(database.db.prisma, { ttlMs: 0, maxEntries: 1 })(key),
  };
}
