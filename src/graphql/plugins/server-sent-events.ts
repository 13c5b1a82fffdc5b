import type { ExecutionResult, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { stringifyJson } from '../../contract/json.ts';

/**
 * Subscriptions over Server-Sent Events (GraphQL over SSE, "distinct connections" mode), as Yoga serves them
 * but with the heartbeat configured: Yoga's own stream pings every 12 s, fixed (300 ms under NODE_ENV=test).
 * A stream ends with `event: complete` when its source ends, the gateway's shutdown included (events/feed.ts).
 * Only open streams are served here: a subscription refused before it began gets Yoga's single-event answer.
 */
export function useServerSentEvents({ heartbeatMs }: { heartbeatMs: number }): Plugin {
  return {
    onResultProcess({ request, result, resultProcessor, setResultProcessor }) {
      if (!resultProcessor || !isAsyncIterable(result)) return;
      if (!request.headers.get('accept')?.includes('text/event-stream')) return;
      setResultProcessor(
        (stream, fetchAPI) => eventStream(stream as AsyncIterable<ExecutionResult>, fetchAPI, heartbeatMs),
        'text/event-stream',
      );
    },
  };
}

function eventStream(
  results: AsyncIterable<ExecutionResult>,
  fetchAPI: { ReadableStream: typeof ReadableStream; Response: typeof Response },
  heartbeatMs: number,
): Response {
  const encoder = new TextEncoder();
  const iterator = results[Symbol.asyncIterator]();
  let heartbeat: NodeJS.Timeout | undefined;
  const body = new fetchAPI.ReadableStream<Uint8Array>({
    start(controller) {
      // A comment at once: some clients show nothing of a response until its first bytes arrive.
      controller.enqueue(encoder.encode(':\n\n'));
      heartbeat = setInterval(() => {
        // null: the stream has errored; 0: the client reads slowly, and a heartbeat can wait.
        if (controller.desiredSize === null) clearInterval(heartbeat);
        else if (controller.desiredSize > 0) controller.enqueue(encoder.encode(': heartbeat\n\n'));
      }, heartbeatMs);
    },
    async pull(controller) {
      const { done, value } = await iterator.next();
      if (value != null) {
        controller.enqueue(
          encoder.encode(`event: next\ndata: ${stringifyJson(withoutInternals(value))}\n\n`),
        );
      }
      if (done) {
        clearInterval(heartbeat);
        controller.enqueue(encoder.encode('event: complete\ndata:\n\n'));
        controller.close();
      }
    },
    async cancel() {
      // The client went away: the subscription's source stops (and its lease is released).
      clearInterval(heartbeat);
      await iterator.return?.();
    },
  });
  return new fetchAPI.Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'content-encoding': 'none',
    },
  });
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
