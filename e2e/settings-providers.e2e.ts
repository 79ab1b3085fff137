import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedProvider, type ScriptedProvider } from '../tests/support/index.ts';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

// Provider rows as a person uses them: adding and removing one (the default model stays), and "Test connection"
// against a scripted model on 127.0.0.1 that answers, then an endpoint that refuses the key, each shown on the row
// with what came back.
let app: LaunchedApp;
let canvas: CanvasDriver;
let answering: ScriptedProvider;
let refusing: ScriptedProvider;
const page = () => app.page;

beforeAll(async () => {
  answering = await startScriptedProvider();
  answering.setDefault({ text: 'OK', firstDelayMs: 30 });
  refusing = await startScriptedProvider();
  refusing.setDefault({ status: 401, errorMessage: 'Incorrect API key provided.' });
  app = await launchApp();
  canvas = new CanvasDriver(app.page);
});
afterAll(async () => {
  await app?.close();
  await answering?.close();
  await refusing?.close();
});

/** Saves and waits for the server's answer ("saved" stays on screen a few seconds, so it cannot be the signal). */
async function saveSettings(): Promise<void> {
  const stored = page().waitForResponse(
    (response) => response.url().endsWith('/api/settings') && response.request().method() === 'PUT',
  );
  await page().getByTestId('save-settings').click();
  expect((await stored).ok()).toBe(true);
  await page().getByTestId('settings-saved').waitFor();
}

describe('Settings: providers', () => {
  it('a provider row shows its kind and Remove; adding one leaves the default model as it was', async () => {
    await page().getByTestId('tab-settings').click();
    const before = await page().getByTestId('default-model').inputValue();
    expect(before).toBe('offline/receipt');
    await page().getByTestId('new-provider-kind').selectOption('openai-compatible');
    await page().getByTestId('add-provider').click();
    const row = page().locator('[data-testid="provider-row"]').last();
    expect(await row.getByTestId('provider-kind').textContent()).toMatch(/OpenAI-compatible/);
    await row.getByTestId('provider-id').fill('lab');
    await row.getByTestId('provider-base-url').fill('http://127.0.0.1:9/v1');
    await row.getByTestId('provider-models').fill('lab-model');
    await page().getByTestId('save-settings').click();
    await page().getByTestId('settings-saved').waitFor();
    await page().waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="default-model"] option')].some((option) =>
        (option as HTMLOptionElement).value.includes('lab-model'),
      ),
    );
    // The new provider's model is offered, not chosen.
    expect(await page().getByTestId('default-model').inputValue()).toBe('offline/receipt');

    await page().locator('[data-testid="provider-row"][data-provider-id="lab"]').getByTestId('provider-remove').click();
    await page().getByTestId('save-settings').click();
    await page().getByTestId('settings-saved').waitFor();
    // Saved without it: the server no longer lists the provider or offers its model.
    await page().waitForFunction(() =>
      (window as unknown as { weft: { store: { getState(): { models: { id: string }[] } } } }).weft.store
        .getState()
        .models.every((model) => !model.id.includes('lab-model')),
    );
    const settings = await (
      await fetch(`${new URL(app.server.url).origin}/api/settings`, {
        headers: { authorization: `Bearer ${app.server.token}` },
      })
    ).json();
    expect(settings.providers.map((provider: { id: string }) => provider.id)).not.toContain('lab');
    await page().getByTestId('tab-canvas').click();
  });

  it('test connection: a saved provider answers the test with its model and latency; a refusing endpoint shows the coded error', async () => {
    await page().getByTestId('tab-settings').click();
    await page().getByTestId('new-provider-kind').selectOption('openai-compatible');
    await page().getByTestId('add-provider').click();
    const row = page().locator('[data-testid="provider-row"]').last();
    // The server tests what it stored, so a row not yet saved cannot be tested.
    expect(await row.getByTestId('provider-test').isDisabled()).toBe(true);
    await row.getByTestId('provider-id').fill('lab');
    await row.getByTestId('provider-base-url').fill(`${answering.url}/v1`);
    await row.getByTestId('provider-models').fill('lab-model');
    await saveSettings();

    const saved = page().locator('[data-testid="provider-row"][data-provider-id="lab"]');
    await saved.getByTestId('provider-test').click();
    const result = saved.getByTestId('provider-test-result');
    await result.waitFor();
    expect(await result.getAttribute('data-ok')).toBe('true');
    const shown = (await result.textContent()) ?? '';
    expect(shown).toMatch(/^✓ \S*lab-model answered in \d+ ms$/);
    // The scripted model waits 30 ms before answering, so the latency shown is the real round trip.
    expect(Number(/in (\d+) ms/.exec(shown)![1])).toBeGreaterThanOrEqual(30);
    // One short request reached the scripted model, for the provider's model.
    expect(answering.requests).toHaveLength(1);
    const sent = answering.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect((sent.body as { model: string }).model).toBe('lab-model');
    expect(JSON.stringify((sent.body as { messages: unknown }).messages)).toContain('Reply with OK.');
    await canvas.screenshot('settings-providers');

    // Pointed at an endpoint that refuses the key: the row says so with the code an ask would get.
    await saved.getByTestId('provider-base-url').fill(`${refusing.url}/v1`);
    // Until it is saved, the edit is not what the server would test, so the button waits for Save.
    expect(await saved.getByTestId('provider-test').isDisabled()).toBe(true);
    await saved.getByTestId('provider-unsaved').waitFor();
    await saveSettings();
    await saved.getByTestId('provider-unsaved').waitFor({ state: 'detached' });
    await saved.locator('[data-testid="provider-test"]:not([disabled])').waitFor();
    await saved.getByTestId('provider-test').click();
    await page().waitForFunction(
      () => document.querySelector('[data-testid="provider-test-result"]')?.getAttribute('data-ok') === 'false',
    );
    expect(await result.textContent()).toMatch(/^✗ The provider refused the API key \(HTTP 401\)/);
    expect(await result.getAttribute('title')).toBe('bad-key');
    expect(refusing.requests).toHaveLength(1);
    expect(answering.requests).toHaveLength(1);
    expect(app.pageErrors.filter((message) => !/favicon/.test(message))).toEqual([]);
  });
});
