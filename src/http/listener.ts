import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorResponseBytes, sendError } from '../contract/error-response.ts';
import { apiError } from '../contract/errors.ts';

export interface HttpTimeouts {
  /** Time a client has to send a whole request (headers and body); then 408 and the connection closes. */
  requestTimeoutMs: number;
  /** Time a client has to send the request headers. */
  headersTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
}

/**
 * The node:http listener: hands every request to `handle` (the pipeline). `drain` has every response from then on
 * ask for its connection to be closed (`Connection: close`), while the server still accepts. `close` drains,
 * stops accepting, lets requests in flight finish, and after `graceMs` answers those still unanswered 503
 * UNAVAILABLE and closes every connection; it resolves with how many responses were still unfinished then.
 */
export async function listen(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  host: string,
  port: number,
  timeouts: Partial<HttpTimeouts> = {},
) {
  const { requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs } = timeouts;
  let draining = false;
  const unfinished = new Set<ServerResponse>();
  const server: Server = createServer(
    {
      requestTimeout: requestTimeoutMs,
      headersTimeout: headersTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      // A request without Host is refused by the pipeline (http/request-target.ts), with the Error object and
      // counted, rather than by node:http with an empty 400.
      requireHostHeader: false,
      // Node checks the two timeouts above only this often (30 s by default).
      connectionsCheckingInterval: headersTimeoutMs && Math.min(1000, headersTimeoutMs),
    },
    (req, res) => {
      unfinished.add(res);
      res.once('close', () => unfinished.delete(res));
      if (draining) res.setHeader('connection', 'close');
      void handle(req, res);
    },
  );
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const { port: boundPort } = server.address() as AddressInfo;
  const drain = () => {
    draining = true;
    for (const res of unfinished) if (!res.headersSent) res.setHeader('connection', 'close');
  };
  return {
    server,
    url: httpUrl(host, boundPort),
    drain,
    close: (graceMs = Number.POSITIVE_INFINITY) =>
      new Promise<number>((resolve) => {
        drain();
        let cutOff = 0;
        const timer = Number.isFinite(graceMs)
          ? setTimeout(() => {
              cutOff = unfinished.size;
              void cutOffUnfinished(unfinished).then(() => server.closeAllConnections());
            }, graceMs)
          : undefined;
        server.close(() => {
          clearTimeout(timer);
          resolve(cutOff);
        });
        server.closeIdleConnections();
        // A response that finishes now leaves its keep-alive connection idle (a completed event stream, whose
        // headers went out before the drain asked to close): closed then, not at the keep-alive timeout.
        for (const res of unfinished) {
          res.once('finish', () => setImmediate(() => server.closeIdleConnections()));
        }
      }),
  };
}

// How long the answers written at the cut-off may take to leave before their connections are closed.
const CUT_OFF_ANSWER_MS = 1000;

/**
 * A request still running at the cut-off is answered UNAVAILABLE, which a client may retry elsewhere, rather
 * than reset (the pipeline drops its handler's own answer, if one comes). Resolves once those answers are sent.
 */
async function cutOffUnfinished(unfinished: Set<ServerResponse>): Promise<void> {
  const stopped = apiError('shuttingDown');
  const sent: Promise<unknown>[] = [];
  for (const res of unfinished) {
    if (res.headersSent) continue;
    sent.push(new Promise((resolve) => res.once('close', resolve)));
    sendError(res, stopped, { connection: 'close' });
  }
  await Promise.race([Promise.all(sent), sleep(CUT_OFF_ANSWER_MS)]);
}

export function httpUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * Requests node:http rejects before the app sees them (too slow, malformed, oversized headers) still get the
 * Error object, not Node's bare status line. No rate-limit headers: nothing identified the caller yet.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const refusal =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? apiError('requestTimeout')
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? apiError('headersTooLarge')
        : apiError('notValidHttp');
  socket.end(errorResponseBytes(refusal));
}
