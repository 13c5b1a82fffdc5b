import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Db } from '../db/client.ts';

/** Who is calling: an API key (with its plan) or an anonymous client, identified by IP. */
export type Caller =
  | { kind: 'key'; keyId: bigint; plan: string; ip: string }
  | { kind: 'anonymous'; ip: string };

export interface Context {
  prisma: Db;
  caller: Caller;
}

/** What node:http hands to Yoga with each request; the rate-limit layer adds the caller it identified. */
export interface ServerContext {
  req: IncomingMessage;
  res: ServerResponse;
  caller?: Caller;
}
