import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useGatewayProcess } from '../support/gateway-process.ts';
import { slowUpload } from '../support/slow-upload.ts';

/** Whether a request on a new connection is answered. */
const answers = (port: number) =>
  new Promise<boolean>((done) => {
    const req = request({ port, host: '127.0.0.1', path: '/healthz', agent: false }, (res) =>
      done(res.resume() && true),
    );
    req.once('error', () => done(false));
    req.end();
  });

describe('the gateway process', () => {
  const gateway = useGatewayProcess({ HTTP_HEADERS_TIMEOUT_MS: '1000', SHUTDOWN_TIMEOUT_MS: '10000' });

  it('logs one JSON line per request, with the request id it returns as X-Request-Id', async () => {
    const given = await fetch(`${gateway.url}/healthz`, { headers: { 'x-request-id': 'lb-7f3a.1' } });
    expect(given.headers.get('x-request-id')).toBe('lb-7f3a.1');
    const malformed = await fetch(`${gateway.url}/graphql?query={__typename}`, {
      headers: { 'x-request-id': 'a'.repeat(200) },
    });
    const generated = malformed.headers.get('x-request-id') ?? '';
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);

    expect(await gateway.logLine((line) => line.reqId === 'lb-7f3a.1')).toMatchObject({
      level: 'info',
      msg: 'request',
      method: 'GET',
      path: '/healthz',
      status: 200,
      api: 'ops',
      operation: '/healthz',
    });
    expect(await gateway.logLine((line) => line.reqId === generated)).toMatchObject({
      path: '/graphql',
      status: 200,
      api: 'graphql',
      operation: 'anonymous',
    });
    expect(gateway.lines.filter((line) => line.reqId === generated)).toHaveLength(1);
  });

  it('answers 408 and closes the connection when a client takes longer than HTTP_HEADERS_TIMEOUT_MS to send its headers', async () => {
    const socket = connect(gateway.port, '127.0.0.1');
    const started = Date.now();
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk;
    });
    await new Promise((closed) => socket.once('close', closed));
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toMatchObject({
      code: 'REQUEST_TIMEOUT',
      status: 408,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('on SIGTERM stops accepting, lets a request in flight finish, then exits 0', async () => {
    const upload = slowUpload(gateway.port);
    await upload.inFlight;
    gateway.child.kill('SIGTERM');
    await gateway.logLine((line) => line.msg.startsWith('shutting down'));
    expect(await answers(gateway.port)).toBe(false);

    upload.finish();
    const { status, connection, body } = await upload.response;
    expect(status).toBe(200);
    expect(JSON.parse(body).data.categories.edges.length).toBeGreaterThan(0);
    expect(connection).toBe('close');
    expect(await gateway.exited).toBe(0);
    expect(gateway.lines.at(-1)?.msg).toBe('stopped');
  });
});

describe('a request still unfinished after SHUTDOWN_TIMEOUT_MS', () => {
  const gateway = useGatewayProcess({ SHUTDOWN_TIMEOUT_MS: '500' });

  it('is cut off with 503 UNAVAILABLE (not a reset), and the process exits 0 without waiting longer', async () => {
    const upload = slowUpload(gateway.port);
    const answered = upload.response.catch((error: NodeJS.ErrnoException) => error.code);
    await upload.inFlight;
    const signalled = Date.now();
    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(500);
    expect(Date.now() - signalled).toBeLessThan(3000);
    const answer = await answered;
    expect(answer).toMatchObject({ status: 503, connection: 'close' });
    expect(JSON.parse((answer as { body: string }).body)).toEqual({
      code: 'UNAVAILABLE',
      message: 'The gateway is shutting down; retry the request',
      status: 503,
    });
    expect(gateway.lines.find((line) => line.level === 'warn')).toMatchObject({ cutOff: 1 });
  });
});
