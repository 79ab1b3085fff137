import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedProvider, type ScriptedProvider } from '../tests/support/index.ts';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';
import { putSettings, scriptedProviderEntry } from './support/put-settings.ts';

// Issue 31, part 1 in the browser: "Ask several…" plans a model set (the model that set the limits, one context
// hash, the count), sends every request, and each answer becomes a version of the question.
let app: LaunchedApp;
let canvas: CanvasDriver;
let provider: ScriptedProvider;

beforeAll(async () => {
  provider = await startScriptedProvider();
  provider.byModel = { 'model-a': { text: 'A says blue.' }, 'model-b': { text: 'B says grey.' } };
  app = await launchApp();
  canvas = new CanvasDriver(app.page);
  const settings = await putSettings(app, {
    providers: [
      scriptedProviderEntry(provider.url, ['model-a', 'model-b'], { apiKey: 'sk-test-ask-several-0123456789' }),
    ],
    defaultModelId: 'scripted/model-a',
  });
  expect(settings.status).toBe(200);
  await app.reload();
});
afterAll(async () => {
  await app?.close();
  await provider?.close();
});

describe('Ask several…', () => {
  it('plans one context for two models × two samples, sends four requests and keeps four versions', async () => {
    const page = app.page;
    await page.getByTestId('add-question').click();
    const panel = canvas.panel;
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

    // Compare set: four columns in the set's order, the one context named once; arrows and Enter select an answer.
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
    await compare.getByTestId('set-answer').first().focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect.poll(() => compare.getByTestId('set-answer').nth(2).getAttribute('data-selected')).toBe('true');
    await compare.getByTestId('set-compare-close').click();
    await panel.getByTestId('panel-answer').filter({ hasText: 'B says grey.' }).waitFor();
    expect(app.pageErrors.filter((message) => !/favicon/.test(message))).toEqual([]);
  });
});
