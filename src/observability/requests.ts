import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UsageEvent } from '../usage/counts.ts';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';
import { openRequestContext } from './request-context.ts';

// nginx's convention for a request whose client went away before the response was sent.
const CLIENT_CLOSED_REQUEST = 499;

/**
 * Every request's id, log line and metrics: the id is set as X-Request-Id before anything answers, and
 * when the response ends (or the client goes away) one JSON line is logged (level error for a 5xx) and the
 * request is counted.
 */
export function createRequestObserver({
  logger,
  metrics,
  usage,
}: {
  logger: Logger;
  metrics: Metrics;
  /** Counts each answer of an API key for its usage page. */
  usage?: (event: UsageEvent) => void;
}) {
  return function observe(req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now();
    const context = openRequestContext(req);
    const ip = req.socket.remoteAddress;
    // As sent: a HEAD of /graphql is handed to Yoga as a GET (http/pipeline.ts).
    const { method } = req;
    res.setHeader('X-Request-Id', context.id);
    res.once('close', () => {
      const ms = performance.now() - started;
      const status = res.writableFinished ? res.statusCode : CLIENT_CLOSED_REQUEST;
      metrics.observe(context, status, ms / 1000);
      if (usage && context.keyId !== undefined) {
        const { keyId, api, operation, refusal } = context;
        usage({ keyId, status, api, operation, refusal });
      }
      logger[status >= 500 ? 'error' : 'info'](
        {
          reqId: context.id,
          method,
          path: req.url?.split('?')[0],
          status,
          ms: Math.round(ms * 10) / 10,
          api: context.api,
          operation: context.operation,
          ip,
        },
        'request',
      );
    });
  };
}
