/** A fetch for paths of one gateway: `app.fetch` in-process, or `overHttp(url)` for one on a port. */
export type Fetch = (path: string, init?: RequestInit) => Promise<Response>;

/** Requests to the gateway served at `url` (a process, or a test app with `http: true`). */
export const overHttp =
  (url: string): Fetch =>
  (path, init) =>
    fetch(`${url}${path}`, init);

export interface GraphQLResponse extends Answer {
  // biome-ignore lint/suspicious/noExplicitAny: test responses are checked by assertions, not types
  body: { data?: any; errors?: { message: string; extensions?: Record<string, unknown> }[] };
}

export interface SendOptions {
  /** Sent as it is when a string, a form or a stream; anything else as JSON. */
  body?: unknown;
  /** The body's Content-Type; JSON's by default. */
  contentType?: string;
  /** The API key to send; null for none. The helpers' own key (a test app's Business key) by default. */
  key?: string | null;
  headers?: Record<string, string>;
}

/** A response as the tests read it: its text, and that text parsed when it is JSON. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are checked by assertions, not types
  body: any;
}

export async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  const json = /json/.test(response.headers.get('content-type') ?? '') && text !== '';
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: json ? JSON.parse(text) : undefined,
  };
}

/**
 * The request helpers every test sends with, over `fetch` (a test app's, or `overHttp(url)` for a gateway
 * process) and with `apiKey` unless a request says otherwise.
 */
export function requestHelpers(fetch: Fetch, apiKey?: string) {
  /**
   * A request as most tests send it: `body` as it is when a string, a form or a stream, else as JSON; the
   * key unless `key` says otherwise (null: none); `headers` last, over the others.
   */
  async function send(method: string, path: string, options: SendOptions = {}): Promise<Answer> {
    const { body, contentType = 'application/json', key = apiKey, headers = {} } = options;
    const asIs = typeof body === 'string' || body instanceof FormData || body instanceof ReadableStream;
    const response = await fetch(path, {
      method,
      headers: {
        ...(body !== undefined && !(body instanceof FormData) && { 'content-type': contentType }),
        ...(key && { 'x-api-key': key }),
        ...headers,
      },
      body: body === undefined ? undefined : asIs ? body : JSON.stringify(body),
      duplex: 'half', // lets a stream be sent, chunked
    } as RequestInit);
    return answerOf(response);
  }

  /** A GraphQL request body (a string as it is, anything else as JSON) POSTed to /graphql. */
  const postGraphQL = (body: unknown, options: Omit<SendOptions, 'body'> = {}) =>
    send('POST', '/graphql', { ...options, body });

  return {
    send,
    get: (path: string, options: Omit<SendOptions, 'body'> = {}) => send('GET', path, options),
    post: (path: string, body: unknown, options: Omit<SendOptions, 'body'> = {}) =>
      send('POST', path, { ...options, body }),
    postGraphQL,
    graphql: (
      query: string,
      variables?: Record<string, unknown>,
      options: Omit<SendOptions, 'body'> = {},
    ): Promise<GraphQLResponse> => postGraphQL({ query, variables }, options),
  };
}
