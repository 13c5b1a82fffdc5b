import { connect } from 'node:net';
import { expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';

const app = useTestApp({ http: true });

/** Sends raw bytes and returns everything the server answers before it closes the connection. */
function raw(bytes: string): Promise<string> {
  const socket = connect(Number(new URL(app.url).port), '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk;
  });
  socket.write(bytes);
  return new Promise((done) => socket.once('close', () => done(received)));
}

const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));

it('answers a request that is not HTTP with 400 and the Error object', async () => {
  const response = await raw('HELLO THERE\r\n\r\n');
  expect(response).toMatch(/^HTTP\/1\.1 400 /);
  expect(bodyOf(response)).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
});

it('answers oversized headers with 431 and the Error object', async () => {
  const response = await raw(`GET /pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
  expect(response).toMatch(/^HTTP\/1\.1 431 /);
  expect(bodyOf(response)).toMatchObject({ code: 'HEADERS_TOO_LARGE', status: 431 });
});
