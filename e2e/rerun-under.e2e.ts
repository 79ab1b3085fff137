import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedProvider } from '../tests/support/index.ts';
import type { CanvasDriver } from './support/canvas-driver.ts';
import type { LaunchedApp } from './support/launch-app.ts';
import { launchScriptedApp, type ScriptedApp } from './support/scripted-app.ts';

// Issue 31, part 4 in the browser: "Re-run under…" plans the whole canvas under another model, runs it upstream
// first from the run's own answers, keeps the person's selected answers, and the Run comparison lists the run.
let app: LaunchedApp;
let canvas: CanvasDriver;
let provider: ScriptedProvider;
let kit: ScriptedApp;

/** The text of every message a provider was handed. */
function sentText(body: unknown): string {
  return JSON.stringify((body as { messages: unknown }).messages);
}

beforeAll(async () => {
  kit = await launchScriptedApp('sk-test-rerun-0123456789', (scripted) => {
    scripted.replyFor = (body) => {
      const model = (body as { model: string }).model;
      const above = /answer is (\d+)/.exec(sentText(body))?.[1];
      const next = (above ? Number(above) : 0) + (model === 'model-b' ? 2 : 1);
      return { text: `${model}: the answer is ${next}.` };
    };
  });
  ({ app, canvas, provider } = kit);
});
afterAll(async () => {
  await kit?.close();
});

describe('Re-run under…', () => {
  it('re-runs the canvas under another model from its own upstream, keeps the selection, compares the run', async () => {
    const page = app.page;
    // A canvas of its own (the first-run canvas holds other questions).
    await page.evaluate(async () => {
      const weft = (
        window as unknown as { weft: { store: { getState(): { createCanvas(name: string): Promise<string> } } } }
      ).weft;
      await weft.store.getState().createCanvas('Study');
    });
    const first = await canvas.addQuestion('Q1: start counting.');
    await canvas.ask(first);
    const second = await canvas.addQuestion('Q2: count on from the answer above.');
    await canvas.connect(first, second);
    await canvas.ask(second);
    await canvas.panel.getByTestId('panel-answer').filter({ hasText: 'model-a: the answer is 2.' }).waitFor();
    // Nothing selected: the whole canvas.
    await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });

    await page.getByTestId('rerun-under').click();
    const dialog = page.getByTestId('rerun-dialog');
    await dialog.getByTestId('rerun-model').selectOption('scripted/model-b');
    await dialog.getByTestId('rerun-name').fill('b run');
    expect(await dialog.getByTestId('rerun-count').textContent()).toBe('2');
    const before = provider.requests.length;
    await dialog.getByTestId('rerun-confirm').click();
    await provider.waitForRequests(before + 2);
    await page.getByText('“b run”: 2 answers kept').waitFor();
    const sent = provider.requests.slice(before);
    expect(sent.map((request) => (request.body as { model: string }).model)).toEqual(['model-b', 'model-b']);
    // Q2 was asked from the run's Q1 answer (2), not the person's (1).
    expect(sentText(sent[1]!.body)).toContain('model-b: the answer is 2.');

    // The person's answers still flow downstream: Q2 shows model-a's answer, with the run's beside it.
    await canvas.open(second);
    await canvas.panel.getByTestId('panel-answer').filter({ hasText: 'model-a: the answer is 2.' }).waitFor();
    expect(await canvas.panel.getByTestId('version-item').count()).toBe(2);

    await page.getByTestId('rerun-under').click();
    expect(await dialog.getByTestId('rerun-refusal').count()).toBe(0);
    await dialog.getByTestId('rerun-name').fill('b run');
    await dialog.getByTestId('rerun-refusal').filter({ hasText: 'nothing left to run' }).waitFor();
    const rows = dialog.getByTestId('run-comparison-row');
    expect(await rows.count()).toBe(2);
    expect(await rows.allTextContents()).toEqual([
      expect.stringContaining('Q1: start counting.'),
      expect.stringContaining('Q2: count on from the answer above.'),
    ]);
    await canvas.screenshot('rerun-under');

    // A question added below after the run: the same name and model continue the run with it alone, from the run's
    // own Q2 answer (4), not the person's (2).
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    const third = await canvas.addQuestion('Q3: count on again.');
    await canvas.connect(second, third);
    await canvas.ask(third);
    await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
    await page.getByTestId('rerun-under').click();
    await dialog.getByTestId('rerun-model').selectOption('scripted/model-b');
    await dialog.getByTestId('rerun-name').fill('b run');
    await dialog.getByTestId('rerun-resumed').filter({ hasText: '2 questions' }).waitFor();
    expect(await dialog.getByTestId('rerun-count').textContent()).toBe('1');
    const beforeRest = provider.requests.length;
    await dialog.getByTestId('rerun-confirm').click();
    await page.getByText('“b run”: 1 answer kept').waitFor();
    const rest = provider.requests.slice(beforeRest);
    expect(rest.map((request) => (request.body as { model: string }).model)).toEqual(['model-b']);
    expect(sentText(rest[0]!.body)).toContain('model-b: the answer is 4.');
    expect(app.pageErrors.filter((message) => !/favicon/.test(message))).toEqual([]);
  });
});
