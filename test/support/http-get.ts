import { type Agent, request } from 'node:http';

export interface Answer {
  status: number;
  connection: string | undefined;
  requestId: string;
  body: string;
}

/**
 * One GET over node:http, on a new connection unless `agent` keeps one: the tests of draining and stopping need
 * to see the connection itself (kept, or told to close), which fetch hides.
 */
export function get(url: string, path: string, agent: Agent | false = false) {
  return new Promise<Answer>((done, fail) => {
    const req = request(`${url}${path}`, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () =>
        done({
          status: res.statusCode ?? 0,
          connection: res.headers.connection,
          requestId: String(res.headers['x-request-id']),
          body,
        }),
      );
    });
    req.on('error', fail);
    req.end();
  });
}
