import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasDriver } from './support/canvas-driver.ts';
import { putSettings } from './support/put-settings.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

// Memory (C13–C14) in the browser, on the rule path (no judge configured): the offline receipt model answers.
let app: LaunchedApp;
let canvas: CanvasDriver;

beforeAll(async () => {
  app = await launchApp();
  // These tests are about admission itself: facts skip the Inbox (issue 29.1; e2e/memory-inbox.e2e.ts has the gate).
  expect((await putSettings(app, { memoryAutoAccept: { profileFacts: true } })).status).toBe(200);
  canvas = new CanvasDriver(app.page);
});
afterAll(async () => {
  await app?.close();
});

const page = () => app.page;
const memoryTab = () => page().getByTestId('tab-memory');
const lines = (document: 'preferences' | 'identity') =>
  page().getByTestId(`memory-document-${document}`).getByTestId('memory-line');

async function showMemory(): Promise<void> {
  if ((await page().getByTestId('memory-page').count()) === 0) await memoryTab().click();
  await page().getByTestId('memory-page').waitFor();
}

async function showCanvas(): Promise<void> {
  await page().getByTestId('tab-canvas').click();
  await page().getByTestId('memory-page').waitFor({ state: 'detached' });
}

describe('memory in the browser', () => {
  it('ask → a fact with provenance → Undo → delete a line → the same statement is refused and shown refused', async () => {
    // 0. The demo canvas's note is Weft's words, and its card and panel say so (memory never takes it as yours).
    const demoNote = page().locator('[data-testid="node-card"].note').first();
    await demoNote.waitFor();
    const noteId = (await demoNote.getAttribute('data-node-id'))!;
    await canvas.open(noteId);
    expect(await canvas.card(noteId).getByTestId('note-by-weft').textContent()).toBe('Written by Weft');
    await canvas.panel.getByTestId('note-by-weft-hint').waitFor();

    await page().getByTestId('canvas-menu').click();
    await page().getByTestId('canvas-new').click();
    await page().getByTestId('canvas-name').fill('About me');
    await page().getByTestId('canvas-name-save').click();
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 0);

    // 1. A stated preference becomes a line, with its evidence and the commit it came from.
    const first = await canvas.addQuestion('I prefer answers in British English. What is a lift?');
    await canvas.ask(first);
    const firstHash = (await canvas.panel.getByTestId('version-hash').first().textContent())!.trim();
    await page().locator('[data-testid="toast"][data-code="memory-admitted"]').waitFor();
    await showMemory();
    await lines('preferences').first().waitFor();
    expect(await lines('preferences').count()).toBe(1);
    await lines('preferences').first().locator('.memory-line-text').click();
    const provenance = page().getByTestId('memory-provenance');
    expect(await provenance.locator('mark').textContent()).toBe('I prefer answers in British English.');
    expect(await provenance.getByTestId('memory-evidence').textContent()).toBe(
      'I prefer answers in British English. What is a lift?',
    );
    expect(firstHash.startsWith((await provenance.getByTestId('memory-commit').textContent())!.replace('…', ''))).toBe(
      true,
    );
    expect(await lines('preferences').first().getAttribute('data-evidence')).toBe('stated');

    // 2. Undo from the toast: the line goes, and the statement is now refused.
    await page().locator('[data-testid="toast"][data-code="memory-admitted"]').getByTestId('toast-action').click();
    await page().waitForFunction(
      () =>
        document.querySelectorAll('[data-testid="memory-document-preferences"] [data-testid="memory-line"]').length ===
        0,
    );
    expect(await page().getByTestId('memory-refusal').count()).toBe(1);

    // 3. A second preference, deleted by hand on the memory page.
    await showCanvas();
    const second = await canvas.addQuestion('I use Neovim for everything.');
    await canvas.ask(second);
    await page().locator('[data-testid="toast"][data-code="memory-admitted"]').first().waitFor();
    // The next preview carries it as its own part, from the profile, and the dispatch commits that hash.
    const third = await canvas.addQuestion('Which plugins are worth it?');
    await canvas.open(third);
    await canvas.panel.locator('[data-testid="preview-message"][data-layer="profile"]').waitFor();
    expect(await canvas.panel.locator('[data-layer="profile"] .preview-text').textContent()).toBe(
      '[Memory]\nPreferences:\n- I use Neovim for everything.',
    );
    const previewHash = await canvas.previewHash();
    await canvas.ask(third);
    expect((await canvas.panel.getByTestId('version-hash').first().textContent())!.trim()).toBe(previewHash);

    await showMemory();
    await lines('preferences').first().waitFor();
    await lines('preferences').first().locator('.memory-line-text').click();
    await page().getByTestId('memory-provenance').waitFor();
    await canvas.screenshot('memory-page');
    // One click from a line's provenance opens the node it came from.
    await page().getByTestId('memory-open-node').click();
    await page().getByTestId('memory-page').waitFor({ state: 'detached' });
    await page().locator(`[data-testid="node-card"][data-node-id="${second}"]`).waitFor();
    expect(
      await page().evaluate(
        () =>
          (
            window as unknown as { weft: { store: { getState(): { selectedNodeIds: string[] } } } }
          ).weft.store.getState().selectedNodeIds,
      ),
    ).toEqual([second]);
    await showMemory();
    await lines('preferences').first().waitFor();
    await lines('preferences').first().getByTestId('memory-delete').click();
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="memory-refusal"]').length === 2);
    expect(await lines('preferences').count()).toBe(0);

    // 4. The same statement again: refused, and the page says so.
    await showCanvas();
    const again = await canvas.addQuestion('I use Neovim for everything.');
    await canvas.ask(again);
    await showMemory();
    await page()
      .locator('[data-testid="memory-activity-entry"][data-kind="refused"][data-reason="refused-by-person"]')
      .first()
      .waitFor();
    expect(await lines('preferences').count()).toBe(0);
    await canvas.screenshot('memory-refused');

    // Every decision is in the canvas's event log, as metadata.
    await page().getByTestId('tab-events').click();
    const ops = await page()
      .locator('[data-testid="event-row"]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-op')));
    expect(ops).toContain('memory-judged');
    expect(ops).toContain('memory-written');
    expect(ops).toContain('memory-undone');

    // 5. An import whose stated line says something its span never said: the page names the line it dropped.
    await showMemory();
    const exported = await page().evaluate(() => fetch('/api/memory/export').then((response) => response.text()));
    const [, front] = exported.split('---\n');
    const profile = JSON.parse(front!) as { documents: { preferences: { text: string; ended: unknown }[] } };
    const forged = profile.documents.preferences[0]!;
    forged.text = 'The user is Christophe, a chef in Lyon.';
    forged.ended = null;
    await page()
      .getByTestId('memory-import-file')
      .setInputFiles({
        name: 'forged.md',
        mimeType: 'text/markdown',
        buffer: Buffer.from(`---\n${JSON.stringify(profile)}\n---\n`),
      });
    const toast = page().locator('[data-testid="toast"][data-code="memory-import-refused"]');
    await toast.waitFor();
    expect(await toast.textContent()).toContain('The user is Christophe, a chef in Lyon.');
    expect(await lines('preferences').count()).toBe(0);
    expect(app.pageErrors).toEqual([]);
  });
});
