import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

// Keys only make the hosted models listable; nothing here asks a model, so no request leaves 127.0.0.1.
let app: LaunchedApp;
let canvas: CanvasDriver;

beforeAll(async () => {
  app = await launchApp({ env: { OPENAI_API_KEY: 'sk-e2e-never-sent', ANTHROPIC_API_KEY: 'sk-ant-e2e-never-sent' } });
  canvas = new CanvasDriver(app.page);
});
afterAll(async () => {
  await app?.close();
});

const page = () => app.page;
const layerValue = (layer: string) => canvas.panel.getByTestId(`tokens-${layer}`).locator('.value');

async function waitForText(locator: ReturnType<typeof layerValue>, expected: string): Promise<void> {
  await expect.poll(async () => (await locator.textContent())?.trim(), { timeout: 20_000 }).toBe(expected);
}

describe('token counts in the will-send preview and the Replay dialog', () => {
  it('the Replay dialog prices an estimate with ≈ and an OpenAI count without it', async () => {
    // The first launch opens the demo canvas, which has stale answers.
    await page().getByTestId('replay-chip').waitFor();
    await expect.poll(async () => Number(await page().getByTestId('stale-count').textContent())).toBeGreaterThan(0);

    // The default model is the first hosted one (OpenAI): tokens and price are exact.
    await page().getByTestId('replay-chip').click();
    const tokens = page().getByTestId('replay-tokens');
    await expect.poll(async () => tokens.getAttribute('data-exact'), { timeout: 20_000 }).toBe('true');
    expect(await tokens.textContent()).toMatch(/^\d[\d,]*$/);
    expect(await page().getByTestId('replay-price').textContent()).toMatch(/^\$\d/);
    await page().getByRole('button', { name: 'Cancel' }).click();

    // With Anthropic as the default, the same Replay is an estimate.
    const settings = await fetch(`${app.server.origin}/api/settings`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${app.server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ defaultModelId: 'anthropic/claude-sonnet-4-5' }),
    });
    expect(settings.status).toBe(200);
    await app.reload();
    await page().getByTestId('replay-chip').click();
    expect(await page().getByTestId('replay-tokens').getAttribute('data-exact')).toBe('false');
    expect(await page().getByTestId('replay-tokens').textContent()).toMatch(/^≈\d/);
    expect(await page().getByTestId('replay-price').textContent()).toMatch(/^≈\$\d/);
    await page().getByRole('button', { name: 'Cancel' }).click();
    expect(app.pageErrors).toEqual([]);
  });
  it('counts exactly with the o200k tokenizer for an OpenAI model and marks an Anthropic estimate with ≈', async () => {
    await page().getByTestId('canvas-menu').click();
    await page().getByTestId('canvas-new').click();
    await page().getByTestId('canvas-name').fill('Tokens');
    await page().getByTestId('canvas-name-save').click();
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 0);
    await canvas.addQuestion('tiktoken is great!');

    // The default is now Anthropic; each pick below pins the node's model.
    // "tiktoken is great!" is 6 tokens in o200k_base (OpenAI's own example); chars / 4 would say 5.
    await canvas.panel.getByTestId('model-picker').selectOption('openai/gpt-4o');
    await waitForText(layerValue('question'), '6');
    expect(await canvas.panel.getByTestId('token-layers').getAttribute('data-exact')).toBe('true');
    expect(await canvas.panel.getByTestId('preview-message').last().textContent()).toContain('6 tok');

    await canvas.panel.getByTestId('model-picker').selectOption('anthropic/claude-sonnet-4-5');
    await waitForText(layerValue('question'), '≈5');
    await waitForText(layerValue('total'), '≈5');
    expect(await canvas.panel.getByTestId('token-layers').getAttribute('data-exact')).toBe('false');
    expect(await canvas.panel.getByTestId('preview-message').last().textContent()).toContain('≈5 tok');
    expect(app.pageErrors).toEqual([]);
  });
});
