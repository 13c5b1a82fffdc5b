import { type IncomingHttpHeaders, request } from 'node:http';

export interface HostReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A GET (or `method`) with a Host header of the test's choosing, which fetch cannot send. */
export function getWithHost(
  port: number | string,
  host: string,
  path = '/',
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<HostReply> {
  return new Promise((resolve, reject) => {
    const req = request({ port, path, method, setHost: false, headers: { host, ...headers } });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
