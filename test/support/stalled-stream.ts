// A subscriber that stops reading: a raw TCP connection that sends a GraphQL over SSE request, reads the response
// up to its first bytes, then reads nothing more, so that the kernel's buffers fill and the gateway must hold or
// drop what it would send. `resume` reads on, to the end of the response.
import { connect } from 'node:net';
import { parseEvents, type StreamEvent } from './event-stream.ts';

export async function openStalledStream(
  url: string,
  query: string,
  { key, variables }: { key?: string; variables?: Record<string, unknown> } = {},
) {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ query, variables });
  const socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const chunks: Buffer[] = [];
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.write(
    [
      'POST /graphql HTTP/1.1',
      `Host: ${hostname}:${port}`,
      'Accept: text/event-stream',
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      ...(key ? [`X-API-Key: ${key}`] : []),
      '',
      body,
    ].join('\r\n'),
  );
  // The status line, headers and the stream's opening comment: the subscription is listening.
  while (!Buffer.concat(chunks).includes('\r\n\r\n')) {
    await new Promise((resolve) => socket.once('data', resolve));
  }
  socket.pause();
  const head = Buffer.concat(chunks).toString('latin1');
  return {
    status: Number(head.split(' ')[1]),
    /** Reads on until the gateway closes the connection; answers the stream's events. */
    async resume(): Promise<{ events: StreamEvent[]; text: string }> {
      socket.resume();
      await closed;
      const text = dechunk(Buffer.concat(chunks).toString('latin1'));
      return { events: parseEvents(text), text };
    },
    /** Whether the gateway has closed the connection (without the client having read it all). */
    closed,
    destroy: () => socket.destroy(),
  };
}

/** The body of a chunked HTTP/1.1 response, from the whole response as text. */
function dechunk(response: string): string {
  let rest = response.slice(response.indexOf('\r\n\r\n') + 4);
  let body = '';
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    if (lineEnd < 0) return body;
    const size = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return body;
    body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

/** A selection whose every event is about 60 KB: the kernel's buffers fill after a few dozen. */
export const BULKY = (petId: number) =>
  `subscription { inventoryChanged(petId: ${petId}) { ${Array.from(
    { length: 15 },
    (_, i) => `${'q'.repeat(3900)}${i}: quantity`,
  ).join(' ')} version } }`;

/** One request that sets a pet's stock 150 times (a batch of 10 operations of 15 aliased writes each). */
export function flood(petId: number, from: number) {
  return Array.from({ length: 10 }, (_, op) => ({
    query: `mutation { ${Array.from(
      { length: 15 },
      (_, i) =>
        `w${i}: updateInventory(petId: ${petId}, input: { quantity: ${from + op * 15 + i} }) { quantity }`,
    ).join(' ')} }`,
  }));
}
