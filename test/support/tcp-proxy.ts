import { createServer, type Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of a dependency (PostgreSQL, Redis) that a test can pause: while paused, nothing is
 * forwarded either way and every connection stays open, as when the dependency is SIGSTOPped or the network
 * silently drops packets. New connections are accepted while paused and forwarded once resumed. It also stands
 * in for a load balancer, whose target a test can change.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  let paused = false;
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    const pair = { client, upstream };
    pairs.add(pair);
    // Forwarded by hand rather than piped: pipe() resumes its source on drain, which would end a pause. A paused
    // socket is not read: the kernel's buffers fill and the sender stalls, as with a stopped peer.
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => client.write(chunk));
    if (paused) {
      client.pause();
      upstream.pause();
    }
    upstream.connect(target.port, target.host);
    const close = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  return {
    host: '127.0.0.1',
    port,
    /** How many connections pass through the proxy now. */
    get connections() {
      return pairs.size;
    },
    /** Stops forwarding in both directions; connections stay open. */
    pause() {
      paused = true;
      for (const { client, upstream } of pairs) {
        client.pause();
        upstream.pause();
      }
    },
    resume() {
      paused = false;
      for (const { client, upstream } of pairs) {
        client.resume();
        upstream.resume();
      }
    },
    /** Forwards new connections to `next` from now on (a load balancer that took the old target out). */
    retarget(next: { host: string; port: number }) {
      target = next;
    },
    /** Closes every connection open now (a database restarted, a network cut); new ones are forwarded. */
    dropConnections() {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
    },
    /** Closes every connection and stops listening. */
    close: () =>
      new Promise<void>((resolve) => {
        for (const { client, upstream } of pairs) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}

export type TcpProxy = Awaited<ReturnType<typeof startTcpProxy>>;
