import type { ServerResponse } from 'node:http';
import type { ExecutionResult, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { graphqlErrorBody } from '../../contract/error-response.ts';
import { ApiError, apiError } from '../../contract/errors.ts';
import { stringifyJson } from '../../contract/json.ts';
import { SUBSCRIPTION_CAP_RETRY_AFTER_SECONDS } from '../../contract/limits.ts';
import { type Backlog, slowConsumer } from '../../contract/streams.ts';

export interface EventStreamOptions {
  /** A comment line on every open stream this often; also how long a slow consumer has to read its last event. */
  heartbeatMs: number;
  /** The most a stream may hold that its client has not taken yet: past either, the stream is ended. */
  backlog: Backlog;
  /** Told of every stream ended for falling behind (a metric counts them). */
  onSlowConsumer?: (behind: Backlog) => void;
  log: { warn(details: object, message: string): void };
}

/**
 * Subscriptions over Server-Sent Events (GraphQL over SSE, "distinct connections" mode), as Yoga serves them but
 * with a bounded backlog and the heartbeat configured. Every subscription's stream is served here, whatever else
 * the client accepts, so that no stream escapes the bound.
 *
 * A subscription refused before its stream began (NOT_FOUND, VALIDATION_FAILED, ...) is reported on an accepted
 * stream, 200 with one `next` event carrying the error and then `complete`, as the protocol wants for errors found
 * before execution: graphql-sse clients retry any other status, and a browser's EventSource shows nothing of it.
 * A rate-limit refusal (429) keeps its status, with Retry-After, so that clients back off; so does a 5xx.
 *
 * A stream takes each event from its source as soon as it comes, and holds what its client has not read yet, up to
 * `backlog`; past it, the stream drops what it holds and ends with a SLOW_CONSUMER event (the hard limit of Redis's
 * client-output-buffer-limit for pub/sub, and of NATS's slow consumers): a subscriber never makes a write wait or
 * the gateway's memory grow. A stream ends with `event: complete` when its source ends; `dropAll` (the gateway's
 * shutdown) cuts every stream's connection instead, which clients treat as a dropped connection: they reconnect.
 */
export function createEventStreams(options: EventStreamOptions) {
  const open = new Set<{ drop(): void }>();
  let dropping = false;
  const subscriptions = new WeakSet<Request>();
  const plugin: Plugin<{ request: Request }> = {
    onSubscribe({ args }) {
      subscriptions.add(args.contextValue.request);
    },
    onResultProcess({ request, result, setResultProcessor, serverContext }) {
      if (!isAsyncIterable(result)) {
        if (answeredAsEventStream(request)) setResultProcessor(singleAnswer, 'text/event-stream');
        return;
      }
      // Other streaming results (none yet: @defer and @stream) go to the type the client asked for.
      if (!subscriptions.has(request)) return;
      const { res } = serverContext as { res?: ServerResponse };
      setResultProcessor((stream, fetchAPI) => {
        const served = eventStream(stream as AsyncIterable<ExecutionResult>, fetchAPI, res, options);
        if (dropping) served.drop();
        else {
          open.add(served);
          served.closed.then(() => open.delete(served));
        }
        return served.response;
      }, 'text/event-stream');
    },
  };
  return {
    plugin,
    /** Cuts every open stream's connection, and every stream's opened from now on. */
    dropAll() {
      dropping = true;
      for (const stream of open) stream.drop();
    },
    get openStreams() {
      return open.size;
    },
  };
}

export type EventStreams = ReturnType<typeof createEventStreams>;

const encoder = new TextEncoder();
const COMPLETE = encoder.encode('event: complete\ndata:\n\n');

// Media types that Yoga answers a single result with as JSON, which it prefers to an event stream.
const JSON_TYPES = new Set(['application/graphql-response+json', 'application/json', 'application/*', '*/*']);

/** Whether Yoga answers a single result as an event stream: the client accepts that and no JSON. */
function answeredAsEventStream(request: Request): boolean {
  const types = (request.headers.get('accept') ?? '*/*')
    .split(',')
    .map((type) => type.split(';')[0]?.trim().toLowerCase() ?? '');
  return types.includes('text/event-stream') && !types.some((type) => JSON_TYPES.has(type));
}

/**
 * A result that is not a stream (a refusal, or a query sent with Accept: text/event-stream): its `next` event, then
 * `complete`. 200 but for a rate limit's 429 and a server's 5xx, which clients are to retry later.
 */
function singleAnswer(
  answer: ExecutionResult | readonly ExecutionResult[] | AsyncIterable<ExecutionResult>,
  fetchAPI: { Response: typeof Response },
): Response {
  const results = [answer as ExecutionResult | readonly ExecutionResult[]].flat();
  const statuses = results.flatMap((result) => result.errors ?? []).map(statusOf);
  const status = statuses.includes(429) ? 429 : Math.max(200, ...statuses.filter((code) => code >= 500));
  const events = results.map((result) => `event: next\ndata: ${stringifyJson(withoutInternals(result))}\n\n`);
  return new fetchAPI.Response(`${events.join('')}event: complete\ndata:\n\n`, {
    status,
    headers: {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      // The rate-limit layer sets its own when it knows when its window reopens.
      ...(status === 429 && { 'retry-after': String(SUBSCRIPTION_CAP_RETRY_AFTER_SECONDS) }),
    },
  });
}

const statusOf = (error: GraphQLError): number => {
  const { status, http } = error.extensions ?? {};
  return Number(status ?? (http as { status?: number } | undefined)?.status ?? 200);
};

function eventStream(
  results: AsyncIterable<ExecutionResult>,
  fetchAPI: { ReadableStream: typeof ReadableStream; Response: typeof Response },
  res: ServerResponse | undefined,
  { heartbeatMs, backlog: limit, onSlowConsumer }: EventStreamOptions,
) {
  const iterator = results[Symbol.asyncIterator]();
  // What the client has not taken yet; `last` once nothing will be added to it.
  const backlog: Uint8Array[] = [encoder.encode(':\n\n')];
  let backlogBytes = backlog[0]?.byteLength ?? 0;
  let last = false;
  let wake: (() => void) | undefined;
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let sourceDone = false;
  let markClosed = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });

  const add = (chunk: Uint8Array) => {
    backlog.push(chunk);
    backlogBytes += chunk.byteLength;
    wake?.();
  };
  const finish = (...chunks: Uint8Array[]) => {
    for (const chunk of chunks) add(chunk);
    last = true;
    clearInterval(heartbeat);
    wake?.();
  };
  // Lets the source go: the subscription's listener and its place among the caller's open ones.
  const stopSource = () => {
    if (sourceDone) return;
    sourceDone = true;
    iterator.return?.().catch(() => {});
  };
  const end = () => {
    clearInterval(heartbeat);
    stopSource();
    markClosed();
  };
  let dropped = false;
  const drop = () => {
    dropped = true;
    backlog.length = 0;
    finish();
    end();
    if (res) res.destroy();
    else controller?.error(new Error('The gateway is shutting down'));
  };

  const heartbeat = setInterval(() => {
    // A client that has not taken what it has needs no heartbeat.
    if (backlog.length === 0) add(encoder.encode(': heartbeat\n\n'));
  }, heartbeatMs);
  heartbeat.unref();

  const fellBehind = (next: Uint8Array) => {
    const behind = { events: backlog.length + 1, bytes: backlogBytes + next.byteLength };
    stopSource();
    backlog.length = 0;
    backlogBytes = 0;
    const error = slowConsumer(behind, limit);
    finish(errorEvent(error), COMPLETE);
    onSlowConsumer?.(behind);
    // The client has one heartbeat interval to read its last event; one that reads nothing is disconnected.
    setTimeout(() => {
      if (res && !res.writableFinished) res.destroy();
    }, heartbeatMs).unref();
  };

  const read = async () => {
    try {
      for (;;) {
        const { done, value } = await iterator.next();
        if (sourceDone) return;
        if (done) break;
        const chunk = encoder.encode(`event: next\ndata: ${stringifyJson(withoutInternals(value))}\n\n`);
        if (backlog.length >= limit.events || backlogBytes + chunk.byteLength > limit.bytes) {
          return fellBehind(chunk);
        }
        add(chunk);
      }
      sourceDone = true;
      finish(COMPLETE);
    } catch (error) {
      // The source failed (a key revoked, a row no longer visible): the error is the stream's last event.
      if (sourceDone) return;
      stopSource();
      finish(errorEvent(error), COMPLETE);
    }
  };

  const body = new fetchAPI.ReadableStream<Uint8Array>(
    {
      start(streamController) {
        controller = streamController;
        void read();
      },
      async pull(streamController) {
        while (backlog.length === 0 && !last) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
        }
        if (dropped) return;
        const chunk = backlog.shift();
        if (chunk) {
          backlogBytes -= chunk.byteLength;
          streamController.enqueue(chunk);
        }
        if (backlog.length === 0 && last) {
          streamController.close();
          end();
        }
      },
      cancel() {
        end();
      },
    },
    // Pulled only when the response asks for more: what the client has not read stays in `backlog`.
    { highWaterMark: 0 },
  );
  // However the connection ends (the client left, it was cut), the source goes.
  res?.once('close', end);

  const response = new fetchAPI.Response(body, {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' },
  });
  return { response, drop, closed };
}

const INTERNAL = apiError('internal');

/** A `next` event carrying the error as a GraphQL result: the Error object's code and status in `extensions`. */
function errorEvent(error: unknown): Uint8Array {
  const result = error instanceof ApiError ? graphqlErrorBody(error) : graphqlErrorOf(error);
  return encoder.encode(`event: next\ndata: ${stringifyJson(result)}\n\n`);
}

/** A GraphQL error as its result gives it, without Yoga's `http` extension; anything else is INTERNAL. */
function graphqlErrorOf(error: unknown) {
  const graphql = (error as GraphQLError).toJSON?.();
  if (!graphql) return graphqlErrorBody(INTERNAL);
  const { http: _http, ...extensions } = graphql.extensions ?? {};
  return { errors: [{ ...graphql, extensions }] };
}

/** The errors as a client sees them: Yoga's `http` extension (a status for the response) is not for it. */
function withoutInternals(result: ExecutionResult): object {
  if (!result.errors?.length) return result;
  const errors = result.errors.map((error: GraphQLError) => {
    const { http: _http, ...extensions } = error.extensions ?? {};
    return { ...error.toJSON(), extensions };
  });
  return { ...result, errors };
}

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
