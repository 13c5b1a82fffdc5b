import { request } from 'node:http';

const QUERY = JSON.stringify({ query: 'query SlowUpload { categories { edges { node { name } } } }' });

/**
 * A POST (of a GraphQL query to /graphql unless told otherwise) whose body arrives in two parts: the first once the server has the request, the rest when
 * `finish` is called. The request is in flight in between, as with a slow client. `inFlight` settles when the
 * server has taken the request in: it asks for `Expect: 100-continue`, which node:http answers just before it
 * hands the request to the app.
 */
export function slowUpload(
  port: number,
  {
    path = '/graphql',
    body = QUERY,
    headers = {},
  }: { path?: string; body?: string; headers?: Record<string, string> } = {},
) {
  const half = Math.floor(body.length / 2);
  const req = request({
    port,
    host: '127.0.0.1',
    method: 'POST',
    path,
    headers: {
      ...headers,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      expect: '100-continue',
    },
  });
  const response = new Promise<{ status: number; connection: string | undefined; body: string }>(
    (done, fail) => {
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () =>
          done({ status: res.statusCode ?? 0, connection: res.headers.connection, body: text }),
        );
      });
      req.on('error', fail);
    },
  );
  const inFlight = new Promise<void>((resolve) => {
    req.once('continue', () => {
      req.write(body.slice(0, half));
      resolve();
    });
  });
  req.flushHeaders();
  return { response, inFlight, finish: () => req.end(body.slice(half)) };
}
