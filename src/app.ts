import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { createGraphQLServer } from './graphql/yoga.ts';
import { createOpsRoutes, databaseCheck } from './http/ops.ts';

/**
 * The request pipeline: operational endpoints first, then Yoga, which serves GraphQL (and GraphiQL)
 * behind its plugins.
 */
export function createApp({ db }: { config: Config; db: Database }) {
  const handleOps = createOpsRoutes([databaseCheck(db)]);
  const yoga = createGraphQLServer({ prisma: db.prisma });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (await handleOps(req, res)) return;
    await yoga(req, res);
  }

  return { handle, yoga };
}

export type App = ReturnType<typeof createApp>;
