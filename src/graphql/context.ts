import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Caller } from '../contract/caller.ts';
import type { Db } from '../db/client.ts';

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
