import { loadConfig } from '../../src/config/index.ts';
import { openDatabase } from '../../src/db/client.ts';
import { createPipeline } from '../../src/http/pipeline.ts';
import type { TestDatabase } from './databases.ts';
import { injectInto } from './inject.ts';
import { createTestKey } from './keys.ts';
import { requestHelpers } from './requests.ts';

/**
 * The gateway's pipeline on a connection of its own to `database`, through `url` (a proxy in front of it) when
 * given, with `env`'s settings (its database timeouts): for the tests of what it answers when the database fails
 * under it, which a test app's shared connection would not show. Answered in-process, with a Business key.
 */
export async function startPipelineOn(
  database: TestDatabase,
  env: Record<string, string> = {},
  url = database.url,
) {
  const apiKey = await createTestKey(database.db.prisma, 'business');
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: url, ...env });
  const db = await openDatabase(url, { timeouts: config.databaseTimeouts });
  const pipeline = await createPipeline({ config, db });
  return {
    ...requestHelpers(injectInto(pipeline.handle), apiKey),
    apiKey,
    /** The pipeline's own connection. */
    db,
    close: async () => {
      await pipeline.close();
      await db.close();
    },
  };
}
