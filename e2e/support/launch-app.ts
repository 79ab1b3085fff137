import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startServer, type RunningServer, type StartServerOptions } from '../../server/start-server.ts';
import { CHROMIUM_ARGS, ensureBuilt, repoRoot } from '../../tests/support/browser.ts';

export { CHROMIUM_ARGS, ensureBuilt, repoRoot };

export interface LaunchedApp {
  server: RunningServer;
  home: string;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Console errors seen in the page (asserted empty by the tests that care). */
  pageErrors: string[];
  /** Opens the app URL again (same home, same browser profile). */
  reload(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the real server on 127.0.0.1:0 with a temp home and opens the app in headless Chromium. */
export async function launchApp(
  options: {
    home?: string;
    viewport?: { width: number; height: number };
    /** Provider keys the server sees (none by default); no test sends a request to a hosted provider. */
    env?: Record<string, string>;
    /** Extra API routes (registered before the built-in ones of the same path, e.g. an agent route with a test env). */
    apiRoutes?: StartServerOptions['apiRoutes'];
    /** C35: a scripted Crossref on 127.0.0.1 for the scholarly search tool. */
    crossrefUrl?: string;
  } = {},
): Promise<LaunchedApp> {
  ensureBuilt();
  const home = options.home ?? mkdtempSync(path.join(tmpdir(), 'weft-e2e-'));
  const server = await startServer({
    port: 0,
    home,
    staticDir: path.join(repoRoot, 'dist/ui'),
    env: options.env ?? {},
    dotenvPath: null,
    ollamaUrl: null,
    allowLoopbackTargets: true,
    ...(options.apiRoutes ? { apiRoutes: options.apiRoutes } : {}),
    ...(options.crossrefUrl ? { crossrefUrl: options.crossrefUrl } : {}),
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1440, height: 900 },
    acceptDownloads: true,
  });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await page.goto(server.url);
  await page.waitForSelector('[data-testid="canvas"]', { timeout: 30_000 });
  return {
    server,
    home,
    browser,
    context,
    page,
    pageErrors,
    async reload() {
      await page.reload();
      await page.waitForSelector('[data-testid="canvas"]', { timeout: 30_000 });
    },
    async close() {
      await browser.close().catch(() => {});
      await server.close().catch(() => {});
      if (!options.home) rmSync(home, { recursive: true, force: true });
    },
  };
}
