import { z } from 'zod';
import { DEFAULT_DATABASE_URL, parseDatabaseUrl } from './database-url.ts';
import { trueOrFalse } from './values.ts';

/** Which database, and whether an empty one gets the demo catalogue. */
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
    SEED_DEMO_DATA: trueOrFalse.default(true),
  })
  .transform((env) => ({ database: env.DATABASE_URL, seedDemoData: env.SEED_DEMO_DATA }));
