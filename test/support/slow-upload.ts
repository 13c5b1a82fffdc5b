import { request } from 'node:http';

const QUERY = JSON.stringify({ query: 'query SlowUpload { categories { edges { node { name } } } }' });

/**
 * A POST /graphql whose body arrives in two parts: the first now, the rest when `finish` is called. The
 * request is in flight in between, as with a slow client.
 */
export function slowUpload(port: number) {
  const half = Math.floor(QUERY.length / 2);
  const req = request({
    port,
    host: '127.0.0.1',
    method: 'POST',
    path: '/graphql',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(QUERY) },
  });
  const response = new Promise<{ status: number; connection: string | undefined; body: string }>(
    (done, fail) => {
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => done({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
      });
      req.on('error', fail);
    },
  );
  req.write(QUERY.slice(0, half));
  return { response, finish: () => req.end(QUERY.slice(half)) };
}
