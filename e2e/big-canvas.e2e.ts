import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

// A canvas far larger than the screen: the Fit View button and "Zoom to selection" act at once on cards that were
// never drawn, and zooming out switches cards to their title and status, then to dots.
let app: LaunchedApp;
let canvas: CanvasDriver;
const page = () => app.page;

interface PageStore {
  getState(): {
    apply(change: unknown): boolean;
    flush(): Promise<void>;
    setSelection(ids: string[]): void;
    createCanvas(name: string): Promise<string>;
  };
}
type PageWindow = { weft: { store: PageStore } };

function onScreen(nodeId: string): Promise<boolean> {
  return page().evaluate((id) => {
    const card = document.querySelector(`[data-testid="node-card"][data-node-id="${id}"]`);
    if (!card) return false;
    const area = document.querySelector('.react-flow')!.getBoundingClientRect();
    const box = card.getBoundingClientRect();
    return box.right > area.left && box.left < area.right && box.bottom > area.top && box.top < area.bottom;
  }, nodeId);
}

beforeAll(async () => {
  app = await launchApp();
  canvas = new CanvasDriver(app.page);
  await page().locator('[data-testid="node-card"]').first().waitFor();
  // 30 × 30 questions over a 12,000 × 7,000 area, added in one change.
  await page().evaluate(async () => {
    const state = (window as unknown as PageWindow).weft.store.getState();
    await state.createCanvas('Wide');
    const changes = [];
    for (let row = 0; row < 30; row += 1)
      for (let column = 0; column < 30; column += 1)
        changes.push({
          type: 'add-node',
          node: {
            id: `g-${row}-${column}`,
            kind: 'question',
            question: `Cell ${row}.${column}?`,
            position: { x: column * 400, y: row * 240 },
          },
        });
    (window as unknown as PageWindow).weft.store.getState().apply({ type: 'batch', changes });
    await (window as unknown as PageWindow).weft.store.getState().flush();
  });
}, 60_000);
afterAll(async () => {
  await app?.close();
});

describe('a large canvas in Chromium', () => {
  it('the Fit View button fits every card at once, drawn as dots on one canvas', async () => {
    await page().locator('[data-testid="node-card"][data-node-id^="g-"]').first().waitFor();
    await page().evaluate(() => (window as unknown as PageWindow).weft.store.getState().setSelection(['g-0-0']));
    await canvas.command('zoom-to-selection');
    await page().waitForFunction(
      () => document.querySelector('[data-testid="node-card"][data-node-id="g-29-29"]') === null,
      undefined,
      { timeout: 3_000 },
    );
    await page().getByTestId('fit-view').click();
    // 900 cards fitted are dots on one <canvas>: no card is mounted, and the far corner is painted.
    await page().getByTestId('canvas-dots').waitFor({ timeout: 3_000 });
    expect(await page().locator('[data-testid="node-card"]').count()).toBe(0);
    const painted = await page().evaluate(() => {
      const element = document.querySelector<HTMLCanvasElement>('[data-testid="canvas-dots"]')!;
      const box = element.getBoundingClientRect();
      const context = element.getContext('2d')!;
      let count = 0;
      const data = context.getImageData(0, 0, element.width, element.height).data;
      for (let index = 3; index < data.length; index += 4) if (data[index]! > 0) count += 1;
      return { count, width: box.width };
    });
    expect(painted.count).toBeGreaterThan(900);
  });

  it('Zoom to selection fits the selected cards and shows them whole again', async () => {
    await page().evaluate(() =>
      (window as unknown as PageWindow).weft.store.getState().setSelection(['g-12-7', 'g-12-8']),
    );
    await canvas.command('zoom-to-selection');
    await page().waitForFunction(
      () =>
        document.querySelector('[data-testid="node-card"][data-node-id="g-12-7"]')?.getAttribute('data-detail') ===
        null,
      undefined,
      { timeout: 3_000 },
    );
    expect(await onScreen('g-12-7')).toBe(true);
    expect(await onScreen('g-12-8')).toBe(true);
    expect(await onScreen('g-0-0')).toBe(false);
    await expect(
      page().locator('[data-testid="node-card"][data-node-id="g-12-7"] [data-testid="node-question"]').textContent(),
    ).resolves.toBe('Cell 12.7?');
  });

  it('between the two, a zoomed-out card shows its title and no answer', async () => {
    await page().evaluate(() =>
      (window as unknown as PageWindow).weft.store.getState().setSelection(['g-12-7', 'g-12-18']),
    );
    await canvas.command('zoom-to-selection');
    await page().waitForFunction(
      () =>
        document.querySelector('[data-testid="node-card"][data-node-id="g-12-7"]')?.getAttribute('data-detail') ===
        'summary',
      undefined,
      { timeout: 3_000 },
    );
    await expect(page().locator('[data-node-id="g-12-7"] .lod-title').textContent()).resolves.toBe('Cell 12.7?');
  });
});
