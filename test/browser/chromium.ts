import { type Browser, type BrowserContext, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`), headless, with nothing of its own going to the network. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
// blob: and data: URLs are made by the page itself (GraphiQL starts its editor workers from blobs).
const isLocal = (url: URL) =>
  url.protocol === 'blob:' || url.protocol === 'data:' || LOOPBACK_HOSTS.has(url.hostname);

/**
 * Blocks every request of the context's pages (workers included) that leaves the machine, and returns the
 * list of those it blocked: a test asserts it stays empty.
 */
export async function blockOutsideLoopback(context: BrowserContext): Promise<string[]> {
  const outside: string[] = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (isLocal(url)) return route.continue();
    outside.push(url.href);
    return route.abort('blockedbyclient');
  });
  context.on('page', (page) =>
    page.on('websocket', (socket) => {
      if (!isLocal(new URL(socket.url()))) outside.push(socket.url());
    }),
  );
  return outside;
}
