import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Database } from '../db/client.ts';

export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

/**
 * Operational endpoints, answered before the API layers (not rate-limited): /healthz says the process is up,
 * /readyz that every dependency answers.
 */
export function createOpsRoutes(checks: ReadinessCheck[]) {
  return async function handleOps(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const path = req.url?.split('?')[0];
    if (path === '/healthz') {
      sendJson(res, 200, { status: 'ok' });
      return true;
    }
    if (path === '/readyz') {
      const results = await Promise.all(
        checks.map(async ({ name, check }) => {
          try {
            await check();
            return [name, 'ok'] as const;
          } catch (error) {
            return [name, `unavailable: ${(error as Error).message}`] as const;
          }
        }),
      );
      const ready = results.every(([, state]) => state === 'ok');
      sendJson(res, ready ? 200 : 503, { status: ready ? 'ready' : 'unavailable', checks: Object.fromEntries(results) });
      return true;
    }
    return false;
  };
}

export const databaseCheck = (db: Database): ReadinessCheck => ({ name: 'database', check: db.ping });

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}
