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

export async function startDemoGateway(): Promise<{
  app: TestApp;
  browser: Browser;
  close: () => Promise<void>;
}> {
  const [app, browser] = await Promise.all([startTestApp({ http: true }), launchChromium()]);
  await seedDemoCatalogue(app.database.db);
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    app,
    browser,
    close: async () => {
      await browser.close();
      await app.close();
    },
  };
}

/** The demo gateway and browser of a file, started before its tests and closed after them. */
export function useDemoGateway() {
  const demo = perFile(startDemoGateway, (started) => started.close());
  return { app: perFile(async () => demo.app), browser: perFile(async () => demo.browser) };
}
