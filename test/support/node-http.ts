import { type Agent, type IncomingHttpHeaders, request } from 'node:http';

export interface Answer {
  status: number;
  connection: string | undefined;
  requestId: string;
  headers: IncomingHttpHeaders;
  /** Parsed when the response is JSON, else the text. */
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by assertions, not types
  body: any;
}

/**
 * One request over node:http, on a new connection unless `agent` keeps one, from the loopback address `from` when
 * given: the process and deploy tests need to see the connection itself (kept, or told to close) and to choose it
 * (its client address is the caller HAProxy forwards), which fetch hides.
 */
export function send(
  url: string,
  path: string,
  init: {
    method?: string;
    key?: string;
    body?: unknown;
    agent?: Agent | false;
    from?: string;
    headers?: Record<string, string>;
  } = {},
) {
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise<Answer>((done, fail) => {
    const req = request(`${url}${path}`, {
      method: init.method ?? 'GET',
      agent: init.agent ?? false,
      localAddress: init.from,
      headers: {
        ...init.headers,
        ...(init.key && { 'x-api-key': init.key }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () =>
        done({
          status: res.statusCode ?? 0,
          connection: res.headers.connection,
          requestId: String(res.headers['x-request-id']),
          headers: res.headers,
          body: text && res.headers['content-type']?.includes('json') ? JSON.parse(text) : text,
        }),
      );
    });
    req.on('error', fail);
    req.end(body);
  });
}

/** A GET, on a new connection unless `agent` keeps one. */
export const get = (url: string, path: string, agent: Agent | false = false) => send(url, path, { agent });
