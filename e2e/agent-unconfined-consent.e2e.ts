import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentRoute } from '../server/routes/agent-route.ts';
import { configurePi, installRealClis, makeScratch, type Scratch } from '../tests/support/agents/real-agent-harness.ts';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

/**
 * Issue 27 part 5 from the app, on a server where no sandbox can run: the node's panel says the lane runs
 * unconfined and why, asks once for the canvas, and the answer is the server's — it is still there after a reload.
 */
const NO_SANDBOX = 'bubblewrap is not installed (this test)';
let app: LaunchedApp | null = null;
let canvas: CanvasDriver;
let scratch: Scratch;
let skipReason = '';

beforeAll(async () => {
  const clis = installRealClis();
  if ('skip' in clis) {
    skipReason = clis.skip;
    process.stdout.write(`agent-unconfined-consent: skipped — ${skipReason}\n`);
    return;
  }
  scratch = makeScratch('weft-agent-consent-ui-');
  // The picker lists Pi's models from its own config; no turn runs here, so no model server is needed.
  configurePi(scratch, 'http://127.0.0.1:9/unused');
  const env = { ...scratch.env, WEFT_PI_BIN: clis.pi };
  app = await launchApp({
    apiRoutes: [(context) => agentRoute(context, { env, sandboxSupport: () => ({ unconfined: NO_SANDBOX }) })],
  });
  canvas = new CanvasDriver(app.page);
}, 300_000);
afterAll(async () => {
  await app?.close();
  if (scratch) rmSync(scratch.root, { recursive: true, force: true });
});

describe('the agent lane without a sandbox', () => {
  it('says so on the node, asks once for the canvas, and keeps the server’s answer across a reload', async (context) => {
    if (!app) return context.skip(skipReason);
    const page = app.page;
    await page.getByTestId('canvas-menu').click();
    await page.getByTestId('canvas-new').click();
    await page.getByTestId('canvas-name').fill('Unconfined agents');
    await page.getByTestId('canvas-name-save').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 0);
    const asked = await canvas.addQuestion('Look around the project.');
    await canvas.open(asked);
    await canvas.panel.getByTestId('model-picker').selectOption('agent:pi');

    const notice = canvas.panel.getByTestId('agent-unconfined');
    await expect.poll(() => notice.textContent()).toContain(NO_SANDBOX);
    expect(await notice.textContent()).toContain('can read anything you can');
    expect(await canvas.panel.getByTestId('agent-sandbox').count()).toBe(0);
    await canvas.panel.getByTestId('agent-unconfined-consent').click();
    await expect.poll(() => notice.textContent()).toContain('You agreed for this canvas.');

    // The node's picked runtime is saved first, so the reloaded page shows the same panel.
    await page.evaluate(() =>
      (window as unknown as { weft: { store: { getState(): { flush(): Promise<void> } } } }).weft.store
        .getState()
        .flush(),
    );
    await app.reload();
    await canvas.open(asked);
    await expect
      .poll(() => canvas.panel.getByTestId('agent-unconfined').textContent())
      .toContain('You agreed for this canvas.');
    expect(await canvas.panel.getByTestId('agent-unconfined-consent').count()).toBe(0);
    // The record is the server's, under this canvas's id.
    const canvasId = await page.evaluate(
      () =>
        (
          window as unknown as { weft: { store: { getState(): { graph: { canvas: { id: string } } } } } }
        ).weft.store.getState().graph.canvas.id,
    );
    const recorded = JSON.parse(readFileSync(join(app.home, 'agents', 'unconfined-consent.json'), 'utf8')) as {
      canvases: Record<string, unknown>;
    };
    expect(Object.keys(recorded.canvases)).toEqual([canvasId]);
  });
});
