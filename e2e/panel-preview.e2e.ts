import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedProvider, type ScriptedProvider } from '../tests/support/index.ts';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';
import { putSettings, scriptedProviderEntry } from './support/put-settings.ts';

// #30 part 3: what will be sent, where the decision is made. The line beside Ask names the parts, the tokens and the
// request hash the preview shows; it opens the preview; the preview's boxes add up to its total; Edit on a long
// answer brings its editor into view; nothing in the panel is wider than the panel.
let app: LaunchedApp;
let canvas: CanvasDriver;
let provider: ScriptedProvider;

const LONG_ANSWER = Array.from(
  { length: 80 },
  (_, index) => `Line ${index + 1}: /home/researcher/projects/atmospheric-optics/notes/rayleigh-${index}.md`,
).join('\n\n');

beforeAll(async () => {
  provider = await startScriptedProvider();
  provider.setDefault({ text: LONG_ANSWER });
  app = await launchApp();
  canvas = new CanvasDriver(app.page);
  const settings = await putSettings(app, {
    providers: [scriptedProviderEntry(provider.url, ['scripted-model'], { apiKey: 'sk-test-panel-preview-0123' })],
    defaultModelId: 'scripted/scripted-model',
  });
  expect(settings.status).toBe(200);
  await app.reload();
});
afterAll(async () => {
  await app?.close();
  await provider?.close();
});

const page = () => app.page;

/** Elements of the node panel wider than the panel's body, or running past its right edge. */
function overflowing() {
  return canvas.panel.locator('.panel-body').evaluate((body) => {
    const right = body.getBoundingClientRect().right + 0.5;
    const found: string[] = [];
    if (body.scrollWidth > body.clientWidth) found.push(`panel-body scrolls sideways (${body.scrollWidth})`);
    for (const element of body.querySelectorAll<HTMLElement>('*')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || element.closest('.preview-text, pre, .answer-box')) continue;
      // Text cut by an ellipsis inside a box that fits is not an overflow.
      let clipped = false;
      for (let up = element.parentElement; up && up !== body; up = up.parentElement)
        if (getComputedStyle(up).overflowX !== 'visible' && up.getBoundingClientRect().right <= right) clipped = true;
      if (clipped) continue;
      if (box.right > right) found.push(`${element.tagName}.${element.className} ends at ${box.right} > ${right}`);
    }
    return found;
  });
}

describe('the will-send summary beside Ask', () => {
  it('names parts, tokens and the preview hash, and opens the preview', async () => {
    await page().getByTestId('canvas-menu').click();
    await page().getByTestId('canvas-new').click();
    await page().getByTestId('canvas-name').fill('Clouds');
    await page().getByTestId('canvas-name-save').click();
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 0);
    await canvas.addQuestion('Why is the sky blue?');
    const upstream = (await canvas.panel.getAttribute('data-node-id'))!;
    await canvas.ask(upstream);
    const target = await canvas.addQuestion('So why are clouds white, and what about the long paths above?');
    await canvas.connect(upstream, target);
    await canvas.open(target);
    // The preview starts open: its hash and the summary's agree, and so do their totals.
    const summary = canvas.panel.getByTestId('will-send-summary');
    const hash = await canvas.previewHash();
    await expect.poll(() => summary.getAttribute('data-hash')).toBe(hash);
    expect(await canvas.panel.getByTestId('will-send-summary-hash').textContent()).toBe(hash.slice(0, 8));
    const total = (await canvas.panel.getByTestId('tokens-total').locator('.value').textContent())!;
    const parts = await canvas.panel.getByTestId('preview-message').count();
    expect(await summary.textContent()).toContain(`${parts} parts · ${total} tokens`);
    // Every box counts a part that is sent, and together they are the total.
    const boxes = await canvas.panel
      .locator('[data-testid="token-layers"] .token-layer:not(.total) .value')
      .evaluateAll((values) => values.map((value) => Number(value.getAttribute('data-tokens'))));
    const totalTokens = Number(
      await canvas.panel.getByTestId('tokens-total').locator('.value').getAttribute('data-tokens'),
    );
    expect(boxes.reduce((sum, count) => sum + count, 0)).toBe(totalTokens);
    expect(await canvas.panel.getByTestId('token-estimator').textContent()).toMatch(/estimated|counted with/i);
    expect(await overflowing()).toEqual([]);

    // Hidden, the summary opens it and brings it into view.
    await canvas.panel.getByTestId('toggle-preview').click();
    await canvas.panel.getByTestId('preview').waitFor({ state: 'detached' });
    await canvas.panel.locator('.panel-body').evaluate((body) => body.scrollTo(0, 0));
    await summary.click();
    await canvas.panel.getByTestId('preview').waitFor();
    await expect.poll(() => canvas.panel.getByTestId('will-send-section').isVisible()).toBe(true);
    await expect
      .poll(() =>
        canvas.panel.getByTestId('will-send-section').evaluate((section) => {
          const body = section.closest('.panel-body')!.getBoundingClientRect();
          const box = section.getBoundingClientRect();
          return box.top >= body.top - 1 && box.top < body.bottom;
        }),
      )
      .toBe(true);
  });

  it('Edit on a long answer brings its editor into view', async () => {
    const target = (await canvas.panel.getAttribute('data-node-id'))!;
    await canvas.ask(target);
    await canvas.panel.locator('.panel-body').evaluate((body) => body.scrollTo(0, 0));
    await canvas.panel.getByTestId('edit-answer').click();
    const editor = canvas.panel.getByTestId('answer-editor');
    await expect
      .poll(() =>
        editor.evaluate((textarea) => {
          const body = textarea.closest('.panel-body')!.getBoundingClientRect();
          const box = textarea.getBoundingClientRect();
          return box.top >= body.top - 1 && box.bottom <= body.bottom + 1;
        }),
      )
      .toBe(true);
    expect(await editor.evaluate((textarea) => textarea === document.activeElement)).toBe(true);
    expect(await overflowing()).toEqual([]);
    expect(app.pageErrors.filter((message) => !/favicon/.test(message))).toEqual([]);
  });

  it('Settings has one Save, in view beside the provider card, and it saves the web search card too', async () => {
    await page().getByTestId('tab-settings').click();
    const page_ = page().getByTestId('settings');
    await page_.locator('.card-panel').first().waitFor();
    expect(await page_.getByRole('button', { name: /^Save/ }).count()).toBe(1);
    // The first card (providers) and the Save are on screen together, at the top of the page.
    await page_.evaluate((element) => element.scrollTo(0, 0));
    const save = page().getByTestId('save-settings');
    const inView = () =>
      save.evaluate((button) => {
        const box = button.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      });
    expect(await inView()).toBe(true);
    await page().getByTestId('web-search-provider').selectOption('searxng');
    await page().getByTestId('web-search-searxng-url').fill('http://127.0.0.1:9/searx');
    await save.click();
    await page().getByTestId('settings-saved').waitFor();
    const stored = await fetch(`${app.server.origin}/api/web-search`, {
      headers: { authorization: `Bearer ${app.server.token}` },
    }).then((response) => response.json() as Promise<{ provider: string | null; searxngUrl: string | null }>);
    expect(stored).toMatchObject({ provider: 'searxng', searxngUrl: 'http://127.0.0.1:9/searx' });
    await page().getByTestId('tab-canvas').click();
  });
});
