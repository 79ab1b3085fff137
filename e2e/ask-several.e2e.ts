import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedProvider } from '../tests/support/index.ts';
import type { CanvasDriver } from './support/canvas-driver.ts';
import type { LaunchedApp } from './support/launch-app.ts';
import { launchScriptedApp, type ScriptedApp } from './support/scripted-app.ts';

// Issue 31 in the browser: "Ask several…" plans a model set (the model that set the limits, one context hash, the
// count), sends every request, and each answer becomes a version of the question (part 1); Compare shows the answers
// side by side with their latency and tokens, and the one selected there flows downstream (part 2).
let app: LaunchedApp;
let canvas: CanvasDriver;
let provider: ScriptedProvider;
let kit: ScriptedApp;

beforeAll(async () => {
  kit = await launchScriptedApp('sk-test-ask-several-0123456789', (scripted) => {
    scripted.byModel = {
      'model-a': { text: 'A says blue.', usage: { input: 120, output: 4 } },
      'model-b': { text: 'B says grey.', usage: { input: 120, output: 5 } },
    };
  });
  ({ app, canvas, provider } = kit);
});
afterAll(async () => {
  await kit?.close();
});

describe('Ask several…', () => {
  it('asks two models × two samples with one context; Compare selects an answer and the question below goes stale', async () => {
    const page = app.page;
    await page.getByTestId('add-question').click();
    const panel = canvas.panel;
    const asked = (await panel.getAttribute('data-node-id'))!;
    await panel.getByTestId('question-input').pressSequentially('What colour is the sky?', { delay: 0 });
    await panel.getByTestId('ask-several').click();
    const dialog = page.getByTestId('ask-several-dialog');
    await dialog.getByTestId('set-model-scripted/model-b').check();
    expect(await dialog.getByTestId('set-model-scripted/model-a').isChecked()).toBe(true);
    await dialog.getByTestId('set-samples').fill('2');
    expect(await dialog.getByTestId('set-count').textContent()).toBe('4');
    expect(await dialog.getByTestId('set-limits').textContent()).toContain('set the window (8,192 tokens)');
    const context = (await dialog.getByTestId('set-context').textContent())!;
    expect(context).toMatch(/^4 answers, one context: [0-9a-f]{12}…$/);
    const before = provider.requests.length;
    await dialog.getByTestId('set-ask').click();
    await provider.waitForRequests(before + 4);
    await dialog.waitFor({ state: 'detached' });
    const sent = provider.requests.slice(before).map((request) => request.body as { model: string; messages: unknown });
    expect(sent.map((body) => body.model).sort()).toEqual(['model-a', 'model-a', 'model-b', 'model-b']);
    expect(new Set(sent.map((body) => JSON.stringify(body.messages))).size).toBe(1);
    // The toast names the same context hash the plan showed; the four answers are the question's versions.
    await page.getByText(context).first().waitFor();
    await expect.poll(() => panel.getByTestId('version-item').count()).toBe(4);
    await panel.getByTestId('panel-answer').filter({ hasText: 'A says blue.' }).waitFor();

    // The card shows the set as a strip of model initials, the selected answer (model-a's first) marked.
    const chips = canvas.card(asked).getByTestId('set-chip');
    expect(await chips.allTextContents()).toEqual(['MA', 'MA', 'MB', 'MB']);
    expect(await chips.first().getAttribute('class')).toContain('selected');

    // A question below it compiles from the selected answer and is answered: nothing stale yet.
    const below = await canvas.addQuestion('Why that colour?');
    await canvas.connect(asked, below);
    await canvas.ask(below);
    await page.waitForSelector(`[data-testid="node-card"][data-node-id="${below}"][data-stale="false"]`);
    await canvas.open(asked);

    // Compare: four columns in the set's order, the one context named once, each answer's latency and tokens;
    // arrows and Enter select an answer, and the question below goes stale.
    await panel.getByTestId('compare-set').click();
    const compare = page.getByTestId('set-compare-dialog');
    expect(await compare.getByTestId('set-answer').count()).toBe(4);
    expect(await compare.getByTestId('set-compare-context').textContent()).toContain(context.slice(-13));
    const titles = await compare.locator('.diff-title').allTextContents();
    expect(titles.map((title) => title.replace(' · selected', ''))).toEqual([
      'model-a · sample 1',
      'model-a · sample 2',
      'model-b · sample 1',
      'model-b · sample 2',
    ]);
    expect(await compare.getByTestId('set-answer').nth(2).getByTestId('diff-added').count()).toBeGreaterThan(0);
    const usage = await compare.getByTestId('set-answer-usage').allTextContents();
    expect(usage[0]).toMatch(/^\d+\.\d s · 120 in \/ 4 out · /);
    expect(usage[2]).toMatch(/^\d+\.\d s · 120 in \/ 5 out · /);
    // No checks on this question: the checks' rows are not drawn.
    expect(await compare.getByTestId('set-check-rows').count()).toBe(0);
    await compare.getByTestId('set-answer').first().focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect.poll(() => compare.getByTestId('set-answer').nth(2).getAttribute('data-selected')).toBe('true');
    await page.waitForSelector(`[data-testid="node-card"][data-node-id="${below}"][data-stale="true"]`);
    await canvas.screenshot('compare-models');
    await compare.getByTestId('set-compare-close').click();
    await panel.getByTestId('panel-answer').filter({ hasText: 'B says grey.' }).waitFor();
    expect(app.pageErrors.filter((message) => !/favicon/.test(message))).toEqual([]);
  });
});
