import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

let app: LaunchedApp;
let canvas: CanvasDriver;
const page = () => app.page;
const optionNames = () => page().getByTestId('canvas-select').locator('option').allTextContents();

beforeAll(async () => {
  app = await launchApp();
  canvas = new CanvasDriver(app.page);
  await page().locator('[data-testid="node-card"]').first().waitFor();
});
afterAll(async () => {
  await app?.close();
});

describe('canvas list and keyboard', () => {
  it('creates, renames, duplicates and deletes canvases (delete asks first)', async () => {
    await page().getByTestId('canvas-menu').click();
    await page().getByTestId('canvas-new').click();
    await page().getByTestId('canvas-name').fill('Drafts');
    await page().getByTestId('canvas-name-save').click();
    await canvas.addQuestion('Kept in the copy?');

    await page().getByTestId('canvas-menu').click();
    await page().getByTestId('canvas-rename').click();
    await page().getByTestId('canvas-name').fill('Optics drafts');
    await page().getByTestId('canvas-name-save').click();
    await page().waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="canvas-select"] option')].some(
        (option) => option.textContent === 'Optics drafts',
      ),
    );

    await page().getByTestId('canvas-menu').click();
    await page().getByTestId('canvas-duplicate').click();
    await page().waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="canvas-select"] option')].some(
        (option) => option.textContent === 'Optics drafts (copy)',
      ),
    );
    expect(await page().locator('[data-testid="node-question"]', { hasText: 'Kept in the copy?' }).count()).toBe(1);

    await page().getByTestId('canvas-menu').click();
    await page().getByTestId('canvas-delete').click();
    await page().getByTestId('canvas-dialog').waitFor();
    await page().getByTestId('canvas-delete-confirm').click();
    await page().waitForFunction(
      () =>
        ![...document.querySelectorAll('[data-testid="canvas-select"] option')].some(
          (option) => option.textContent === 'Optics drafts (copy)',
        ),
    );
    expect(await optionNames()).toContain('Optics drafts');
  });

  it('Delete removes the selected node; Ctrl+Z or the toast Undo button brings it back', async () => {
    await page().getByTestId('canvas-select').selectOption({ label: 'Optics drafts' });
    const id = await canvas.addQuestion('Delete me?');
    await page()
      .locator('.react-flow__pane')
      .click({ position: { x: 30, y: 400 } });
    await canvas.card(id).locator('.card-header').click();
    await page()
      .locator('.react-flow__pane')
      .focus()
      .catch(() => {});
    await page().keyboard.press('Delete');
    await canvas.card(id).waitFor({ state: 'detached' });
    await page().keyboard.press('Control+z');
    await canvas.card(id).waitFor();

    // The delete toast offers Undo as a button too.
    await canvas.card(id).locator('.card-header').click();
    await page().getByTestId('delete-node').click();
    await canvas.card(id).waitFor({ state: 'detached' });
    await page().locator('[data-testid="toast"][data-code="deleted"]').last().getByTestId('toast-action').click();
    await canvas.card(id).waitFor();
  });

  it('a reload reopens the canvas that was active', async () => {
    await page().evaluate(() =>
      (window as unknown as { weft: { store: { getState(): { flush(): Promise<void> } } } }).weft.store
        .getState()
        .flush(),
    );
    await app.reload();
    await page().locator('[data-testid="node-question"]', { hasText: 'Delete me?' }).waitFor();
    expect(
      await page()
        .getByTestId('canvas-select')
        .evaluate((select) => (select as HTMLSelectElement).selectedOptions[0]?.textContent),
    ).toBe('Optics drafts');
  });

  it('an edit saved in another tab shows here without a reload (canvas-changed on /api/stream)', async () => {
    const other = await app.context.newPage();
    try {
      await other.goto(app.server.url);
      await other.locator('[data-testid="node-question"]', { hasText: 'Delete me?' }).waitFor();
      // The other tab edits the same canvas through its own store and saves the durable record.
      await other.evaluate(async () => {
        type Node = { id: string; kind: string; question?: string };
        const state = (
          window as unknown as {
            weft: {
              store: {
                getState(): {
                  graph: { nodes: Map<string, Node> };
                  apply(change: unknown): boolean;
                  flush(): Promise<void>;
                };
              };
            };
          }
        ).weft.store.getState();
        const node = [...state.graph.nodes.values()].find((candidate) => candidate.question === 'Delete me?')!;
        state.apply({ type: 'edit-node', nodeId: node.id, patch: { question: 'Edited in the other tab?' } });
        await state.flush();
      });
      await page()
        .locator('[data-testid="node-question"]', { hasText: 'Edited in the other tab?' })
        .waitFor({ timeout: 10_000 });
      expect(await page().locator('[data-testid="node-question"]', { hasText: 'Delete me?' }).count()).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('a canvas deleted in another tab leaves this one with a toast and is not re-created by its pending save (canvas-deleted)', async () => {
    type Store = {
      getState(): {
        activeCanvasId: string;
        graph: { nodes: Map<string, { id: string; question?: string }> };
        apply(change: unknown): boolean;
        deleteCanvas(id: string): Promise<void>;
      };
    };
    const id = await page().evaluate(
      () => (window as unknown as { weft: { store: Store } }).weft.store.getState().activeCanvasId,
    );
    const other = await app.context.newPage();
    try {
      await other.goto(app.server.url);
      await other.locator('[data-testid="node-question"]', { hasText: 'Edited in the other tab?' }).waitFor();
      // This tab holds an edit not yet saved when the other tab deletes the canvas.
      await page().evaluate(() => {
        const state = (window as unknown as { weft: { store: Store } }).weft.store.getState();
        const node = [...state.graph.nodes.values()].find(
          (candidate) => candidate.question === 'Edited in the other tab?',
        )!;
        state.apply({ type: 'edit-node', nodeId: node.id, patch: { question: 'Unsaved here?' } });
      });
      await other.evaluate(
        (canvasId) => (window as unknown as { weft: { store: Store } }).weft.store.getState().deleteCanvas(canvasId),
        id,
      );
      await page()
        .locator('[data-testid="toast"][data-code="canvas-deleted"]', {
          hasText: '“Optics drafts” was deleted elsewhere',
        })
        .waitFor({ timeout: 10_000 });
      expect(await optionNames()).not.toContain('Optics drafts');
      expect(
        await page().evaluate(
          () => (window as unknown as { weft: { store: Store } }).weft.store.getState().activeCanvasId,
        ),
      ).not.toBe(id);
      await page().waitForTimeout(1500); // longer than the durable save's debounce
      expect(await page().evaluate(async (canvasId) => (await fetch(`/api/canvases/${canvasId}`)).status, id)).toBe(
        404,
      );
    } finally {
      await other.close();
    }
  });
});
