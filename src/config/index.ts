// The configuration: every setting comes from the environment and is checked once, at start. Each part reads
// its own variables; readConfig checks all parts together and names every problem in one error.
import { databasePart } from './database.ts';
import { graphqlPart } from './graphql.ts';
import { httpPart } from './http.ts';
import { idempotencyPart } from './idempotency.ts';
import { processPart } from './process.ts';
import { rateLimitPart } from './rate-limits.ts';
import { readConfig } from './read.ts';
import { restPart } from './rest.ts';

const PARTS = {
  process: processPart,
  http: httpPart,
  database: databasePart,
  graphql: graphqlPart,
  rest: restPart,
  rateLimit: rateLimitPart,
  idempotency: idempotencyPart,
};

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parts = readConfig(PARTS, env);
  return {
    ...parts.process,
    ...parts.http,
    ...parts.database,
    ...parts.graphql,
    ...parts.rest,
    rateLimit: parts.rateLimit,
    idempotency: parts.idempotency,
  };
}
