import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, repoRoot, type LaunchedApp } from './support/launch-app.ts';

let app: LaunchedApp;
let canvas: CanvasDriver;
const page = () => app.page;
const fixture = (name: string) => readFileSync(path.join(repoRoot, 'tests/fixtures/imports', name));

beforeAll(async () => {
  app = await launchApp();
  canvas = new CanvasDriver(app.page);
});
afterAll(async () => {
  await app?.close();
});

interface Shown {
  name: string;
  questions: { question: string; versions: number; parents: number }[];
}

/** The open canvas, read from the store (off-screen cards are not in the DOM). */
function shown(): Promise<Shown> {
  return page().evaluate(() => {
    type Node = { kind: string; id: string; question?: string; versions?: unknown[] };
    const graph = (
      window as unknown as {
        weft: {
          store: {
            getState(): {
              graph: { canvas: { name: string }; nodes: Map<string, Node>; wires: Map<string, { to: string }> };
            };
          };
        };
      }
    ).weft.store.getState().graph;
    const wires = [...graph.wires.values()];
    return {
      name: graph.canvas.name,
      questions: [...graph.nodes.values()]
        .filter((node) => node.kind === 'question')
        .map((node) => ({
          question: node.question!,
          versions: node.versions!.length,
          parents: wires.filter((wire) => wire.to === node.id).length,
        })),
    };
  });
}

describe('Import (C34) from the app', () => {
  it('imports a ChatGPT export: each conversation a canvas, its edit a branch on it', async () => {
    await page().getByTestId('open-import').click();
    await page()
      .getByTestId('import-conversations-file')
      .setInputFiles({
        name: 'conversations.json',
        mimeType: 'application/json',
        buffer: fixture('chatgpt-conversations.json'),
      });
    await page().getByTestId('import-dialog').waitFor({ state: 'detached', timeout: 60_000 });
    await page().waitForFunction(
      () =>
        (
          window as unknown as { weft: { store: { getState(): { graph: { canvas: { name: string } } } } } }
        ).weft.store.getState().graph.canvas.name === 'Sourdough starter troubleshooting',
    );
    const canvasShown = await shown();
    expect(canvasShown.questions).toHaveLength(4);
    // The regenerated first answer is two versions; the edited follow-up sits beside the original.
    expect(canvasShown.questions.find((node) => node.question.startsWith('My starter'))!.versions).toBe(2);
    expect(canvasShown.questions.filter((node) => node.parents === 1)).toHaveLength(3);
    // Both conversations are in the canvas list.
    await page().getByTestId('canvas-menu').click();
    await expect.poll(() => page().getByText('Capital of Australia').count()).toBeGreaterThan(0);
    await page().keyboard.press('Escape');
    await canvas.command('fit-view');
    // The README's import-chatgpt-branches.png is the first hour's (e2e/first-hour.e2e.ts): one writer per picture.

    // Zoomed out to map mode, the imported answers show their rule plaques, not bare titles (C32).
    const pane = await page().locator('.react-flow__pane').boundingBox();
    await page().mouse.move(pane!.x + pane!.width / 2, pane!.y + pane!.height / 2);
    const zoom = () =>
      page().evaluate(() =>
        Number(getComputedStyle(document.querySelector('.react-flow')!).getPropertyValue('--weft-zoom')),
      );
    for (let step = 0; step < 40 && (await zoom()) >= 0.4; step += 1) {
      await page().mouse.wheel(0, 100);
      await page().waitForTimeout(50);
    }
    expect(await zoom()).toBeGreaterThan(0.2);
    const cards = page().locator('[data-testid="node-card"][data-detail="summary"]');
    await expect.poll(() => cards.count()).toBe(4);
    // Every answered question shows its plaque in map mode.
    const answered = canvasShown.questions.filter((node) => node.versions > 0).length;
    expect(answered).toBeGreaterThan(0);
    await expect.poll(() => page().getByTestId('plaque-map').count()).toBe(answered);
    await canvas.screenshot('import-map-mode');
  });

  it('refuses a malformed export with its line and column, importing nothing', async () => {
    await page().getByTestId('open-import').click();
    await page()
      .getByTestId('import-conversations-file')
      .setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: fixture('chatgpt-malformed.json') });
    const error = page().getByTestId('import-error');
    await error.waitFor({ timeout: 60_000 });
    expect(await error.textContent()).toContain('(line 265, column 5)');
    await canvas.screenshot('import-refused');
    await page().keyboard.press('Escape');
  });

  it('adds a DOCX as a material with its provenance', async () => {
    await page().getByTestId('open-import').click();
    await page()
      .getByTestId('import-document-file')
      .setInputFiles({
        name: 'field-notes.docx',
        mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        buffer: fixture('field-notes.docx'),
      });
    await page().getByTestId('import-dialog').waitFor({ state: 'detached', timeout: 30_000 });
    const provenance = page().getByTestId('material-provenance');
    await provenance.waitFor({ timeout: 30_000 });
    expect(await provenance.textContent()).toContain('Imported from field-notes.docx (docx)');
  });
});
