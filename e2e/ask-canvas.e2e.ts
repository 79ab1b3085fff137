import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../protocol/index.ts';
import { STALE_MARK, hashCanonical } from '../src/core/index.ts';
import { startScriptedProvider, type ScriptedProvider } from '../tests/support/index.ts';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';
import { putSettings, scriptedProviderEntry } from './support/put-settings.ts';

// C17 in the browser: the side chat beside the canvas asks a scripted model on 127.0.0.1 through the real provider
// path; stale marks go out, archived nodes do not, a cited node number selects its node, and Stop aborts.
let app: LaunchedApp;
let canvas: CanvasDriver;
let provider: ScriptedProvider;

const MODEL = 'scripted/scripted-model';

beforeAll(async () => {
  provider = await startScriptedProvider();
  app = await launchApp();
  canvas = new CanvasDriver(app.page);
  const settings = await putSettings(app, {
    providers: [
      scriptedProviderEntry(provider.url, ['scripted-model'], { apiKey: 'sk-test-ask-canvas-e2e-0123456789' }),
    ],
    defaultModelId: MODEL,
  });
  expect(settings.status).toBe(200);
  await app.reload();
});
afterAll(async () => {
  await app?.close();
  await provider?.close();
});

const page = () => app.page;
const panel = () => page().getByTestId('ask-canvas-panel');

/** The canonical request rebuilt from the OpenAI-shaped body the scripted model received. */
function receivedRequest(body: unknown): CanonicalRequest {
  const { messages } = body as { messages: { role: 'system' | 'user' | 'assistant'; content: unknown }[] };
  return {
    model: MODEL,
    messages: messages.map((message) => ({
      role: message.role,
      content: (typeof message.content === 'string'
        ? [message.content]
        : (message.content as { text: string }[]).map((part) => part.text)
      ).map((text) => ({ type: 'text' as const, text })),
    })),
    tools: {},
  };
}

interface PageState {
  graph: { events: { op: string; meta: Record<string, unknown> }[] };
  selectedNodeIds: string[];
}

/** The page's store state, read the way the desktop menu and other tests do (no eval: the CSP forbids it). */
async function pageState(): Promise<PageState> {
  return page().evaluate(() => {
    const current = (window as unknown as { weft: { store: { getState(): PageState } } }).weft.store.getState();
    return { graph: { events: current.graph.events }, selectedNodeIds: current.selectedNodeIds };
  });
}

describe('ask the canvas', () => {
  let first: string;
  let second: string;

  it('opens beside the canvas, previews what goes out, streams the answer, and a cited number selects its node', async () => {
    await page().getByTestId('canvas-menu').click();
    await page().getByTestId('canvas-new').click();
    await page().getByTestId('canvas-name').fill('Retention plan');
    await page().getByTestId('canvas-name-save').click();
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 0);

    first = await canvas.addQuestion('Which metric matters most?');
    provider.script({ text: 'Retention.' });
    await canvas.ask(first);
    second = await canvas.addQuestion('How do we raise it?');
    await canvas.connect(first, second);
    provider.script({ text: 'Onboarding emails.' });
    await canvas.ask(second);
    const discarded = await canvas.addQuestion('A discarded plan about pricing');
    provider.script({ text: 'Raise prices tenfold.' });
    await canvas.ask(discarded);
    await canvas.panel.getByTestId('archive-toggle').click();
    await canvas.card(discarded).getByTestId('badge-archived').waitFor();
    // An edit upstream: both answers are stale now.
    await canvas.editQuestion(first, 'Which metric matters most this quarter?');
    await canvas.open(second);
    provider.requests.length = 0;

    await page().getByTestId('open-ask-canvas').click();
    await panel().waitFor();
    await panel().getByTestId('ask-canvas-input').fill('Which answers should I rerun?');
    await panel().getByTestId('ask-canvas-preview-toggle').click();
    const preview = panel().getByTestId('ask-canvas-preview');
    await preview.waitFor();
    const outline = (await preview.locator('[data-kind="outline"]').textContent())!;
    expect(outline).toContain('#1 question [stale]: Which metric matters most this quarter?');
    expect(outline).toContain('#2 question [stale] (focused): How do we raise it? ← parents #1');
    expect(outline).not.toContain('discarded');
    await expect.poll(async () => preview.locator('[data-kind="question"]').textContent()).toContain('rerun');
    const previewHash = (await panel().getByTestId('ask-canvas-preview-hash').textContent())!.trim();

    provider.script({
      text: 'Both are stale: [1] was reworded, so #2 rests on an old question. Rerun [1] first.',
      chunkSize: 6,
      chunkDelayMs: 60,
    });
    await panel().getByTestId('ask-canvas-send').click();
    // The answer streams in before it is stored.
    await panel().getByTestId('ask-canvas-streaming').filter({ hasText: 'Both are' }).waitFor();
    const turn = panel().getByTestId('ask-canvas-turn').last();
    await turn.getByTestId('ask-canvas-answer').filter({ hasText: 'Rerun' }).waitFor({ timeout: 30_000 });

    // What the model received: stale marks present, the archived node absent, hashed as the turn records.
    expect(provider.requests).toHaveLength(1);
    const received = receivedRequest(provider.requests[0]!.body);
    const sent = JSON.stringify(received);
    expect(sent).toContain('[stale]');
    expect(sent).toContain(STALE_MARK);
    expect(sent).not.toMatch(/discarded|tenfold/);
    const turnHash = await turn.getByTestId('ask-canvas-turn-hash').getAttribute('title');
    expect(turnHash).toBe(`Request hash ${hashCanonical(received)}`);
    expect(hashCanonical(received)).toBe(previewHash);

    // The turn's event: metadata only.
    const events = (await pageState()).graph.events.filter((event) => event.op === 'ask-canvas');
    expect(events).toEqual([
      expect.objectContaining({
        meta: expect.objectContaining({ requestHash: previewHash, outline: 2, chain: 2, focus: second, model: MODEL }),
      }),
    ]);
    expect(JSON.stringify(events)).not.toContain('rerun');

    await canvas.screenshot('ask-canvas');
    await panel().getByTestId('ask-canvas-preview-toggle').click();

    // A cited number selects that node and opens it in the node panel.
    const cites = turn.getByTestId('ask-canvas-cite');
    expect(await cites.count()).toBe(3);
    await cites.first().click();
    await page().locator(`[data-testid="node-panel"][data-node-id="${first}"]`).waitFor();
    expect((await pageState()).selectedNodeIds).toEqual([first]);
    await expect.poll(async () => canvas.card(first).getAttribute('class')).toContain('selected');
  });

  it('keeps the chat across a reload and sends it along with the next ask; Stop aborts the model call; the palette opens it', async () => {
    await app.reload();
    await page().getByTestId('open-ask-canvas').click();
    await panel().getByTestId('ask-canvas-turn').first().waitFor();
    expect(await panel().getByTestId('ask-canvas-turn').count()).toBe(1);

    provider.requests.length = 0;
    provider.script({ text: 'Starting to think about', hang: true });
    await panel().getByTestId('ask-canvas-input').fill('And what next?');
    await panel().getByTestId('ask-canvas-send').click();
    await provider.waitForRequests(1);
    // The earlier turn rides along.
    expect(JSON.stringify(provider.requests[0]!.body)).toContain('Rerun [1] first.');
    await panel().getByTestId('ask-canvas-streaming').filter({ hasText: 'Starting' }).waitFor();
    await panel().getByTestId('ask-canvas-stop').click();
    expect((await provider.waitForEnd(0)).aborted).toBe(true);
    const stopped = panel().getByTestId('ask-canvas-turn').nth(1);
    await stopped.waitFor();
    expect(await stopped.getAttribute('data-status')).toBe('aborted');
    expect(await stopped.textContent()).toContain('stopped');

    // The palette opens and closes it too.
    await panel().getByTestId('ask-canvas-close').click();
    await panel().waitFor({ state: 'detached' });
    await page()
      .locator('.react-flow__pane')
      .click({ position: { x: 200, y: 600 } });
    await page().keyboard.press('Control+K');
    await page().getByTestId('palette-input').fill('ask the canvas');
    expect(await page().getByTestId('palette-item').first().getAttribute('data-command')).toBe('ask-canvas');
    await page().keyboard.press('Enter');
    await panel().getByTestId('ask-canvas-turn').nth(1).waitFor();
    expect(app.pageErrors.filter((message) => !/favicon/.test(message))).toEqual([]);
  });
});
