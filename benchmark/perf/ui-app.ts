// The app as `npm start` runs it, for the browser benchmarks: the real server on 127.0.0.1:0 with a temporary
// `WEFT_HOME`, headless Chromium on its page, and a canvas PUT through the HTTP API.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { CanvasDocument } from '../../protocol/index.ts';
import { ensureBuilt, launchChromium, repoRoot } from '../../tests/support/index.ts';

export type BenchApp = {
  page: Page;
  browser: Browser;
  origin: string;
  token: string;
  close(): Promise<void>;
};

/** Starts the app as `npm start` does (the build is refreshed first only if a source is newer) and reads its URL. */
function startApp(home: string): Promise<{ child: ChildProcess; url: URL }> {
  ensureBuilt();
  const child = spawn(process.execPath, [path.join(repoRoot, 'scripts/start.mjs')], {
    cwd: repoRoot,
    env: { ...process.env, WEFT_PORT: '0', WEFT_HOME: home, WEFT_SKIP_BUILD: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[^\s]+)/.exec(output);
      if (match) resolve({ child, url: new URL(match[1]!) });
    });
    child.once('exit', (code) => reject(new Error(`the app exited (${code}) before printing its URL`)));
  });
}

export async function openApp(): Promise<BenchApp> {
  const home = mkdtempSync(path.join(tmpdir(), 'weft-bench-ui-'));
  const { child, url } = await startApp(home);
  const browser = await launchChromium();
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto(url.href);
  await page.waitForSelector('[data-testid="canvas"]', { timeout: 60_000 });
  return {
    page,
    browser,
    origin: url.origin,
    token: url.searchParams.get('token')!,
    async close() {
      await browser.close().catch(() => {});
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export async function putCanvas(app: { origin: string; token: string }, document: CanvasDocument): Promise<void> {
  const response = await fetch(`${app.origin}/api/canvases/${document.canvas.id}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(document),
  });
  if (!response.ok) throw new Error(`PUT ${document.canvas.id} failed: ${response.status} ${await response.text()}`);
}
