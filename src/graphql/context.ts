import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Caller, Quota } from '../contract/caller.ts';
import type { Db } from '../db/client.ts';

export interface Context {
  prisma: Db;
  caller: Caller;
  quota: Quota;
}

/** What node:http hands to Yoga with each request; the rate-limit layer adds the caller and its quota. */
export interface ServerContext {
  req: IncomingMessage;
  res: ServerResponse;
  caller?: Caller;
  quota?: Quota;
}
