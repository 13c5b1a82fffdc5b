import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../app.ts';

/** Serves the app over node:http; `close` stops accepting and waits for requests in flight. */
export async function listen(app: App, host: string, port: number) {
  const server: Server = createServer((req, res) => {
    void app.handle(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const { port: boundPort } = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${boundPort}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
