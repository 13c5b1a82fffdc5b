import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { inject } from 'light-my-request';

// What undici's fetch adds to every request (but Accept-Encoding: an in-process answer is read as it was sent).
const FETCH_DEFAULT_HEADERS = {
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
};

// Statuses whose responses have no body, which a Response must be built without.
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * A fetch for a node:http handler that needs no port: the request is injected into `handle` (light-my-request)
 * as fetch would send it to the loopback address, and the whole answer comes back as a Response. Responses that
 * never end (event streams) never come back: those tests serve over a port.
 */
export function injectInto(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>) {
  return async (path: string, init: RequestInit = {}): Promise<Response> => {
    const request = new Request(`http://127.0.0.1${path}`, init);
    const headers: Record<string, string> = { ...FETCH_DEFAULT_HEADERS, host: '127.0.0.1' };
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    // A stream is sent as one (chunked, no Content-Length), as fetch sends it; anything else whole.
    const body =
      init.body instanceof ReadableStream
        ? Readable.fromWeb(init.body as WebReadableStream)
        : request.body
          ? Buffer.from(await request.arrayBuffer())
          : undefined;
    let closed: Promise<unknown> = Promise.resolve();
    const dispatch = (req: IncomingMessage, res: ServerResponse) => {
      closed = new Promise((resolve) => res.once('close', resolve));
      // node:http's IncomingMessage has it (the request-target refusal reads it); light-my-request's has not.
      const distinct: Record<string, string[]> = {};
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const name = String(req.rawHeaders[i]).toLowerCase();
        distinct[name] = [...(distinct[name] ?? []), String(req.rawHeaders[i + 1])];
      }
      Object.defineProperty(req, 'headersDistinct', { value: distinct });
      // light-my-request's socket takes each write a turn after the response closes, so an ended response would
      // read as unfinished there (the pipeline's sign of a client that went away); in-process, no client does.
      Object.defineProperty(res, 'writableFinished', { get: () => res.writableEnded });
      void handle(req, res);
    };
    const answer = await inject(dispatch, {
      method: request.method as 'GET',
      url: path,
      headers,
      payload: body,
      remoteAddress: '127.0.0.1',
    });
    // What the pipeline does when the response closes (its log line, metrics, usage) is done before a client
    // over HTTP could send its next request.
    await closed;
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const one of [value ?? []].flat()) responseHeaders.append(name, String(one));
    }
    const noBody = NULL_BODY_STATUSES.has(answer.statusCode) || request.method === 'HEAD';
    return new Response(noBody ? null : new Uint8Array(answer.rawPayload), {
      status: answer.statusCode,
      statusText: answer.statusMessage,
      headers: responseHeaders,
    });
  };
}
