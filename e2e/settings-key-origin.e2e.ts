import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

// Issue 10.7 in the browser: a saved key is bound to its base URL's origin, and Settings says so.
let app: LaunchedApp;
beforeAll(async () => {
  app = await launchApp();
});
afterAll(async () => {
  await app?.close();
});

describe('Settings: keys follow their base URL', () => {
  it('warns before a save moves a key to another host, then says the key was removed', async () => {
    const page = app.page;
    await page.getByTestId('tab-settings').click();
    await page.getByTestId('new-provider-kind').selectOption('openai-compatible');
    await page.getByTestId('add-provider').click();
    const row = page.locator('[data-testid="provider-row"]').last();
    await row.getByTestId('provider-id').fill('lab');
    await row.getByTestId('provider-base-url').fill('http://127.0.0.1:1234/v1');
    await row.getByTestId('provider-key').fill('sk-lab-key-0123');
    await row.getByTestId('provider-models').fill('lab-model');
    await page.getByTestId('save-settings').click();
    await row.getByTestId('key-saved').waitFor();
    expect(await row.getByTestId('key-origin-warning').count()).toBe(0);

    // Same host, another path: no warning.
    await row.getByTestId('provider-base-url').fill('http://127.0.0.1:1234/v2');
    expect(await row.getByTestId('key-origin-warning').count()).toBe(0);

    await row.getByTestId('provider-base-url').fill('http://127.0.0.2:1234/v1');
    expect(await row.getByTestId('key-origin-warning').textContent()).toBe(
      'The saved key was entered for http://127.0.0.1:1234. Saving with this base URL (http://127.0.0.2:1234) removes it; enter the key again for the new host.',
    );
    await page.getByTestId('save-settings').click();
    const toast = page.locator('[data-testid="toast"]', { hasText: 'was removed' });
    await toast.waitFor();
    expect(await toast.textContent()).toContain(
      'The key of “lab” was removed: a key is kept only for the host it was entered for',
    );
    await page.waitForFunction(() => !document.querySelector('[data-testid="key-saved"]'));
    expect(await row.getByTestId('key-origin-warning').count()).toBe(0);
    const stored = (await (
      await fetch(`${app.server.origin}/api/settings`, { headers: { authorization: `Bearer ${app.server.token}` } })
    ).json()) as { providers: { id: string; hasKey: boolean; baseUrl: string }[] };
    expect(stored.providers.find((entry) => entry.id === 'lab')).toMatchObject({
      hasKey: false,
      baseUrl: 'http://127.0.0.2:1234/v1',
    });
  });
});
