import { z } from 'zod';
import { DEFAULT_DATABASE_URL, parseDatabaseUrl } from './database-url.ts';
import { trueOrFalse, wholeNumber } from './values.ts';

/** How long one database call may take before it is answered 503 UNAVAILABLE (docs/database.md). */
export interface DatabaseTimeouts {
  /** A statement (PostgreSQL), or a wait for SQLite's write lock. */
  statementMs: number;
  /** Getting a PostgreSQL connection: from the pool, or a new one. */
  connectMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { statementMs: 5000, connectMs: 5000 };

const milliseconds = wholeNumber({ min: 1, unit: 'milliseconds' });

/** Which database, how long a call to it may take, and whether an empty one gets the demo catalogue. */
export const databasePart = z
  .object({
    DATABASE_URL: z
      .string()
      .default(DEFAULT_DATABASE_URL)
      .transform((url, ctx) => {
        try {
          return parseDatabaseUrl(url);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
          return z.NEVER;
        }
      }),
    DATABASE_STATEMENT_TIMEOUT_MS: milliseconds.default(DEFAULT_DATABASE_TIMEOUTS.statementMs),
    DATABASE_CONNECT_TIMEOUT_MS: milliseconds.default(DEFAULT_DATABASE_TIMEOUTS.connectMs),
    SEED_DEMO_DATA: trueOrFalse.default(true),
  })
  .transform((env) => ({
    database: env.DATABASE_URL,
    databaseTimeouts: {
      statementMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
      connectMs: env.DATABASE_CONNECT_TIMEOUT_MS,
    } satisfies DatabaseTimeouts,
    seedDemoData: env.SEED_DEMO_DATA,
  }));
