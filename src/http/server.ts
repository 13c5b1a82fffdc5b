import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../app.ts';

export interface HttpTimeouts {
  /** Time a client has to send a whole request (headers and body); then 408 and the connection closes. */
  requestTimeoutMs: number;
  /** Time a client has to send the request headers. */
  headersTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
}

/**
 * Serves the app over node:http. `close` stops accepting, lets requests in flight finish (answering them with
 * `Connection: close`), and after `graceMs` closes the connections still open; it resolves with how many
 * responses were still unfinished then.
 */
export async function listen(app: App, host: string, port: number, timeouts: Partial<HttpTimeouts> = {}) {
  const { requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs } = timeouts;
  let closing = false;
  const unfinished = new Set<ServerResponse>();
  const server: Server = createServer(
    {
      requestTimeout: requestTimeoutMs,
      headersTimeout: headersTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      // Node checks the two timeouts above only this often (30 s by default).
      connectionsCheckingInterval: headersTimeoutMs && Math.min(1000, headersTimeoutMs),
    },
    (req, res) => {
      unfinished.add(res);
      res.once('close', () => unfinished.delete(res));
      if (closing) res.setHeader('connection', 'close');
      void app.handle(req, res);
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const { port: boundPort } = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${boundPort}`,
    close: (graceMs = Number.POSITIVE_INFINITY) =>
      new Promise<number>((resolve) => {
        closing = true;
        for (const res of unfinished) if (!res.headersSent) res.setHeader('connection', 'close');
        let cutOff = 0;
        const timer = Number.isFinite(graceMs)
          ? setTimeout(() => {
              cutOff = unfinished.size;
              server.closeAllConnections();
            }, graceMs)
          : undefined;
        server.close(() => {
          clearTimeout(timer);
          resolve(cutOff);
        });
        server.closeIdleConnections();
      }),
  };
}
