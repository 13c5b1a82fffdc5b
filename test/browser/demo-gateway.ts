// A gateway with the demo catalogue beside Debian's Chromium, for the tests that look at its pages and take the
// screenshots. Screenshots go to test/.artifacts/screenshots/ (gitignored); UPDATE_SCREENSHOTS=1 writes the
// committed ones in docs/screenshots/ instead.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { seedDemoCatalogue } from '../../src/store/demo-catalogue.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { perFile } from '../support/per-file.ts';
import { launchChromium } from './chromium.ts';

export const SCREENSHOTS = resolve(
  import.meta.dirname,
  process.env.UPDATE_SCREENSHOTS === '1' ? '../../docs/screenshots' : '../.artifacts/screenshots',
);

/**
 * A test app served on a port, with the demo catalogue when `demo` says so, and Debian's Chromium beside it,
 * started together.
 */
async function startAppWithChromium(options: { env?: NodeJS.ProcessEnv; demo?: boolean } = {}) {
  const [app, browser] = await Promise.all([
    startTestApp({ http: true, env: options.env }),
    launchChromium(),
  ]);
  if (options.demo) await seedDemoCatalogue(app.database.db);
  return {
    app,
    browser,
    close: async () => {
      await browser.close();
      await app.close();
    },
  };
}

export async function startDemoGateway(): Promise<{
  app: TestApp;
  browser: Browser;
  close: () => Promise<void>;
}> {
  const demo = await startAppWithChromium({ demo: true });
  mkdirSync(SCREENSHOTS, { recursive: true });
  return demo;
}

/** The app and browser of a file (startAppWithChromium), started before its tests and closed after them. */
export function useAppWithChromium(options: Parameters<typeof startAppWithChromium>[0] = {}) {
  const started = perFile(
    () => startAppWithChromium(options),
    (both) => both.close(),
  );
  return { app: perFile(async () => started.app), browser: perFile(async () => started.browser) };
}

/** The demo gateway and browser of a file, started before its tests and closed after them. */
export function useDemoGateway() {
  const demo = perFile(startDemoGateway, (started) => started.close());
  return { app: perFile(async () => demo.app), browser: perFile(async () => demo.browser) };
}
