// A GraphQL over SSE client ("distinct connections" mode) for tests: one subscription per HTTP request, its
// events read as they arrive, each wait ending on an event, never on a timer.

export interface StreamEvent {
  /** `next`, `complete`, or `comment` for a comment line (a heartbeat). */
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: events are checked by assertions, not types
  data: any;
}

/** Opens a subscription over SSE: POST by default, or GET with the operation in the query string. */
export async function subscribe(
  url: string,
  query: string,
  {
    variables,
    key,
    method = 'POST',
  }: { variables?: Record<string, unknown>; key?: string; method?: 'GET' | 'POST' } = {},
) {
  const abort = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream', ...(key && { 'x-api-key': key }) };
  let target = `${url}/graphql`;
  let body: string | undefined;
  if (method === 'GET') {
    const params = new URLSearchParams({ query, ...(variables && { variables: JSON.stringify(variables) }) });
    target += `?${params}`;
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify({ query, variables });
  }
  const response = await fetch(target, { method, headers, body, signal: abort.signal });
  const events: StreamEvent[] = [];
  const waiters = new Set<() => void>();
  let ended = false;
  const read = (async () => {
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          events.push(parseEvent(buffer.slice(0, end)));
          buffer = buffer.slice(end + 2);
        }
        for (const wake of waiters) wake();
      }
    } catch {
      // Aborted by `close`, or the server cut the connection.
    } finally {
      ended = true;
      for (const wake of waiters) wake();
    }
  })();

  /** Waits until `matches` holds for the events so far; fails if the stream ends first. */
  async function until<T>(matches: (events: StreamEvent[]) => T | undefined | false): Promise<T> {
    for (;;) {
      const found = matches(events);
      if (found) return found;
      if (ended) throw new Error(`the stream ended first: ${JSON.stringify(events)}`);
      await new Promise<void>((wake) => waiters.add(wake));
    }
  }

  const next = () => events.filter((e) => e.event === 'next').map((e) => e.data);
  return {
    response,
    events,
    /** The `next` events' payloads so far. */
    next,
    /** Waits for `count` `next` events in all and answers their payloads. */
    nextCount: (count: number) => until(() => (next().length >= count ? next() : undefined)),
    until,
    /** Resolves when the server has ended the stream. */
    ended: read,
    close: async () => {
      abort.abort();
      await read;
    },
  };
}

/** The events of a whole `text/event-stream` body. */
export function parseEvents(text: string): StreamEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map(parseEvent);
}

function parseEvent(block: string): StreamEvent {
  if (block.startsWith(':')) return { event: 'comment', data: block.slice(1).trim() };
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
  }
  const text = data.join('\n');
  return { event, data: text ? JSON.parse(text) : null };
}

export type Subscription = Awaited<ReturnType<typeof subscribe>>;
