// Deferred answers in tests: a lock that keeps the deferred fields waiting on PostgreSQL, and a multipart reader
// (meros) that hands the parts over one at a time, so that a test sees which part came before which event.
import { request as httpRequest } from 'node:http';
import { meros } from 'meros/node';
import pg from 'pg';
import { TEST_POSTGRES_URL } from './databases.ts';

/** Holds `"schema"."table"` in ACCESS EXCLUSIVE mode, which blocks reads too, until `release`. */
export async function lockTable(schema: string, table: string): Promise<{ release: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE "${schema}"."${table}" IN ACCESS EXCLUSIVE MODE`);
  let released = false;
  return {
    release: async () => {
      if (released) return;
      released = true;
      await client.query('COMMIT');
      await client.end();
    },
  };
}

/** POSTs `query` to `url`/graphql asking for multipart/mixed; answers an iterator of the parts' bodies. */
export function postForParts(
  url: string,
  query: string,
  headers: Record<string, string> = {},
): Promise<AsyncIterator<{ body: unknown }>> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${url}/graphql`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'multipart/mixed', ...headers },
      },
      async (response) => {
        const parts = (await meros<unknown>(response)) as AsyncIterable<{ body: unknown }>;
        resolve(parts[Symbol.asyncIterator]());
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify({ query }));
  });
}
