import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DomainsRegistry } from '../../src/domains/registry.ts';
import { createHostRouter } from '../../src/domains/router.ts';
import { getWithHost } from '../support/host-request.ts';

const domains = {
  primary: 'shop.example.com',
  attached: ['example.com', 'www.example.com'],
  redirects: [
    { from: 'moved.example.net', to: 'shop.example.com', status: 301 },
    { from: 'found.example.net', to: 'shop.example.com', status: 302 },
    { from: 'temporary.example.net', to: 'www.example.com', status: 307 },
    { from: 'permanent.example.net', to: 'example.com', status: 308 },
  ],
  platformHost: 'edge.petstore-platform.test',
  certificateAuthority: 'letsencrypt.org',
};

const messages: string[] = [];
const log = {
  info: (message: string) => messages.push(message),
  error: (message: string) => messages.push(message),
};

let configPath: string;
let registry: DomainsRegistry;
let server: Server;
let port: number;

function writeConfig(block: object): void {
  writeFileSync(configPath, JSON.stringify({ domains: block }));
}

beforeEach(async () => {
  configPath = join(mkdtempSync(join(tmpdir(), 'domains-')), 'domains.json');
  writeConfig(domains);
  messages.length = 0;
  registry = new DomainsRegistry(configPath, { debounceMs: 200, log }).watch();
  const routeHost = createHostRouter(() => registry.current, { trustProxy: true });
  server = createServer((req, res) => {
    if (routeHost(req, res)) return;
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`served ${req.headers.host} ${req.url}`);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});

afterEach(async () => {
  registry.close();
  server.close();
  await once(server, 'close');
  rmSync(dirname(configPath), { recursive: true, force: true });
});

describe('host routing', () => {
  it.each([301, 302, 307, 308])(
    'answers a redirect with status %i to the same path and query on its target',
    async (status) => {
      const { from, to } = domains.redirects.find(
        (redirect) => redirect.status === status,
      ) as (typeof domains.redirects)[0];
      const reply = await getWithHost(port, `${from}:8080`, '/pets/7?fields=name&x=%20y');
      expect(reply.status).toBe(status);
      expect(reply.headers.location).toBe(`http://${to}/pets/7?fields=name&x=%20y`);
      expect(reply.body).toBe('');
    },
  );

  it('redirects to https when a TLS-terminating proxy says the client used https', async () => {
    const reply = await getWithHost(port, 'moved.example.net', '/docs', { 'x-forwarded-proto': 'https' });
    expect(reply.headers.location).toBe('https://shop.example.com/docs');
  });

  it('ignores X-Forwarded-Proto when no proxy is trusted', async () => {
    const untrusting = createServer((req, res) => {
      if (!createHostRouter(() => registry.current)(req, res)) res.writeHead(200).end();
    });
    untrusting.listen(0, '127.0.0.1');
    await once(untrusting, 'listening');
    try {
      const { port: untrustingPort } = untrusting.address() as AddressInfo;
      const reply = await getWithHost(untrustingPort, 'moved.example.net', '/docs', {
        'x-forwarded-proto': 'https',
      });
      expect(reply.headers.location).toBe('http://shop.example.com/docs');
    } finally {
      untrusting.close();
    }
  });

  it('serves the primary and the attached domains, whatever the case, port or trailing dot', async () => {
    for (const host of ['shop.example.com', 'EXAMPLE.com:443', 'www.example.com.', 'Www.Example.Com.:4000']) {
      const reply = await getWithHost(port, host, '/pets');
      expect(reply.status, host).toBe(200);
      expect(reply.body).toBe(`served ${host} /pets`);
    }
  });

  it('compares redirect sources the same way', async () => {
    const reply = await getWithHost(port, 'MOVED.Example.NET.:80', '/');
    expect(reply.status).toBe(301);
    expect(reply.headers.location).toBe('http://shop.example.com/');
  });

  it('refuses an unknown host with 421 and the Error object', async () => {
    const reply = await getWithHost(port, 'unknown.example.org', '/pets');
    expect(reply.status).toBe(421);
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(reply.body)).toEqual({
      code: 'MISDIRECTED_REQUEST',
      message:
        'unknown.example.org is not a domain of this service; use shop.example.com or attach unknown.example.org',
      status: 421,
    });
  });

  it('refuses a parent or child of an attached domain and a Host header that is not a host', async () => {
    expect((await getWithHost(port, 'example.net')).status).toBe(421);
    expect((await getWithHost(port, 'api.shop.example.com')).status).toBe(421);
    const badHost = await getWithHost(port, 'shop.example.com:https');
    expect(badHost.status).toBe(421);
    expect(JSON.parse(badHost.body).message).toBe(
      'The request has no usable Host header; send Host: shop.example.com',
    );
  });

  it('always serves loopback hosts', async () => {
    for (const host of [
      'localhost',
      'LOCALHOST:4000',
      '127.0.0.1',
      `127.0.0.1:${port}`,
      '127.8.9.10:80',
      '[::1]',
      '[::1]:4000',
    ]) {
      expect((await getWithHost(port, host)).status, host).toBe(200);
    }
  });

  it('serves every host when domains are not configured', async () => {
    const open = createServer((req, res) => {
      if (!createHostRouter(() => null)(req, res)) res.writeHead(200).end();
    }).listen(0, '127.0.0.1');
    await once(open, 'listening');
    expect((await getWithHost((open.address() as AddressInfo).port, 'unknown.example.org')).status).toBe(200);
    open.close();
  });
});

describe('reloading the configuration', () => {
  const withoutWww = {
    ...domains,
    attached: ['example.com'],
    redirects: domains.redirects.filter(({ to }) => to !== 'www.example.com'),
  };

  it('stops serving a removed domain from the next request after SIGHUP', async () => {
    // In a worker thread, process.kill(process.pid) would signal the whole test runner.
    expect(isMainThread).toBe(true);
    expect((await getWithHost(port, 'www.example.com')).status).toBe(200);
    writeConfig(withoutWww);
    const signalled = once(process, 'SIGHUP');
    process.kill(process.pid, 'SIGHUP');
    await signalled;
    // The file watch waits out its 200 ms debounce, so this reload is the signal's.
    expect(registry.current.attached).toEqual(['example.com']);
    expect((await getWithHost(port, 'www.example.com')).status).toBe(421);
    expect((await getWithHost(port, 'example.com')).status).toBe(200);
  });

  it('stops serving a removed domain once the file watch has seen the change', async () => {
    expect((await getWithHost(port, 'www.example.com')).status).toBe(200);
    const reloaded = once(registry, 'reload');
    writeConfig(withoutWww);
    await reloaded;
    expect((await getWithHost(port, 'www.example.com')).status).toBe(421);
    expect(messages).toContain(`Domains configuration reloaded from ${configPath}`);
  });

  it('keeps the previous configuration when the new file is invalid, and logs why', async () => {
    writeConfig({
      ...domains,
      attached: ['www.example.com'],
      redirects: [{ from: 'www.example.com', to: 'x', status: 200 }],
    });
    expect(registry.reload()).toBe(false);
    expect(messages.at(-1)).toMatch(
      /Invalid domains configuration[\s\S]*Keeping the previous domains configuration/,
    );
    expect((await getWithHost(port, 'www.example.com')).status).toBe(200);
    expect((await getWithHost(port, 'moved.example.net')).status).toBe(301);
  });
});
