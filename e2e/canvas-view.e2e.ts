import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

// The canvas view as a person sees it in Chromium: switching canvases, Fit View, the minimap, the ⋯ menu,
// and cards and preview messages that keep their text inside their box.
let app: LaunchedApp;
let canvas: CanvasDriver;
const page = () => app.page;

interface PageStore {
  getState(): {
    activeCanvasId: string;
    canvases: { id: string; name: string }[];
    graph: { nodes: Map<string, { id: string }> };
    apply(change: unknown): boolean;
    flush(): Promise<void>;
    createCanvas(name: string): Promise<string>;
    openCanvas(id: string): Promise<void>;
  };
}
type PageWindow = { weft: { store: PageStore } };

/** Creates a canvas through the ⋯ menu, as a person does. */
async function newCanvas(name: string): Promise<string> {
  await page().getByTestId('canvas-menu').click();
  await page().getByTestId('canvas-new').click();
  await page().getByTestId('canvas-name').fill(name);
  await page().getByTestId('canvas-name-save').click();
  await page().getByTestId('canvas-dialog').waitFor({ state: 'detached' });
  await page().waitForFunction(
    (wanted) =>
      (window as unknown as PageWindow).weft.store.getState().canvases.some((entry) => entry.name === wanted) &&
      document.querySelector<HTMLSelectElement>('[data-testid="canvas-select"]')?.selectedOptions[0]?.textContent ===
        wanted,
    name,
  );
  return page().evaluate(() => (window as unknown as PageWindow).weft.store.getState().activeCanvasId);
}

/** Adds question cards to the open canvas at flow positions far from where the view is (never drawn yet). */
async function addQuestionsAt(positions: { x: number; y: number }[], prefix: string): Promise<string[]> {
  return page().evaluate(
    async ({ positions: spots, prefix: label }) => {
      const state = (window as unknown as PageWindow).weft.store.getState();
      const ids = spots.map((_, index) => `${label.toLowerCase().replace(/\W+/g, '-')}-${index}`);
      state.apply({
        type: 'batch',
        changes: spots.map((position, index) => ({
          type: 'add-node',
          node: { id: ids[index], kind: 'question', question: `${label} question ${index + 1}?`, position },
        })),
      });
      await state.flush();
      return ids;
    },
    { positions, prefix },
  );
}

/** Ids of the cards drawn inside the visible canvas area. */
function cardsOnScreen(): Promise<string[]> {
  return page().evaluate(() => {
    const area = document.querySelector('.react-flow')!.getBoundingClientRect();
    return [...document.querySelectorAll<HTMLElement>('[data-testid="node-card"]')]
      .filter((card) => {
        const box = card.getBoundingClientRect();
        return box.right > area.left && box.left < area.right && box.bottom > area.top && box.top < area.bottom;
      })
      .map((card) => card.dataset.nodeId ?? '');
  });
}

/** Waits until every one of `ids` is drawn on screen; returns what is on screen after `timeout` otherwise. */
async function waitForCardsOnScreen(ids: string[], timeout = 4_000): Promise<string[]> {
  const until = Date.now() + timeout;
  let shown = await cardsOnScreen();
  while (!ids.every((id) => shown.includes(id)) && Date.now() < until) {
    await page().waitForTimeout(100);
    shown = await cardsOnScreen();
  }
  return shown;
}

async function selectCanvas(name: string): Promise<void> {
  await page().getByTestId('canvas-select').selectOption({ label: name });
  await page().waitForFunction(
    (wanted) =>
      (window as unknown as PageWindow).weft.store
        .getState()
        .canvases.find((entry) => entry.id === (window as unknown as PageWindow).weft.store.getState().activeCanvasId)
        ?.name === wanted,
    name,
  );
}

/** How many pixels of the minimap's <canvas> are painted. */
function minimapPaintedPixels(): Promise<number> {
  return page().evaluate(() => {
    const element = document.querySelector<HTMLCanvasElement>('[data-testid="minimap"] canvas')!;
    const data = element.getContext('2d')!.getImageData(0, 0, element.width, element.height).data;
    let painted = 0;
    for (let index = 3; index < data.length; index += 4) if (data[index]! > 0) painted += 1;
    return painted;
  });
}

beforeAll(async () => {
  app = await launchApp();
  canvas = new CanvasDriver(app.page);
  await page().locator('[data-testid="node-card"]').first().waitFor();
});
afterAll(async () => {
  await app?.close();
});

describe('the canvas view in Chromium', () => {
  let demoName = '';
  const farIds: string[] = [];

  it("a canvas switch lands on the new canvas's nodes, not on the old pan and zoom", async () => {
    demoName = await page().evaluate(() => {
      const state = (window as unknown as PageWindow).weft.store.getState();
      return state.canvases.find((entry) => entry.id === state.activeCanvasId)!.name;
    });
    await newCanvas('Far shore');
    farIds.push(
      ...(await addQuestionsAt(
        [
          { x: 6000, y: 4000 },
          { x: 6400, y: 4000 },
          { x: 6200, y: 4250 },
        ],
        'Far shore',
      )),
    );
    await selectCanvas(demoName);
    await page().locator('[data-testid="node-card"]').first().waitFor();

    await selectCanvas('Far shore');
    expect(await waitForCardsOnScreen(farIds)).toEqual(expect.arrayContaining(farIds));
    await canvas.screenshot('canvas-switch');
  });

  it('Fit View shows cards that were added out of sight and never drawn', async () => {
    const hidden = await addQuestionsAt(
      [
        { x: -9000, y: -7000 },
        { x: -8600, y: -7000 },
      ],
      'Out of sight',
    );
    expect(await cardsOnScreen()).not.toContain(hidden[0]);
    await canvas.command('fit-view');
    expect(await waitForCardsOnScreen([...hidden, ...farIds])).toEqual(expect.arrayContaining([...hidden, ...farIds]));
  });

  it('after “Delete canvas…” the next canvas opens on its own nodes', async () => {
    await newCanvas('Doomed');
    const doomed = await addQuestionsAt([{ x: -12000, y: 9000 }], 'Doomed');
    await canvas.command('fit-view');
    expect(await waitForCardsOnScreen(doomed)).toContain(doomed[0]);
    // The next canvas is the most recently changed other one: Far shore (the last test added to it).
    await page().getByTestId('canvas-menu').click();
    await page().getByTestId('canvas-delete').click();
    await page().getByTestId('canvas-delete-confirm').click();
    await page().waitForFunction(
      () => !(window as unknown as PageWindow).weft.store.getState().canvases.some((entry) => entry.name === 'Doomed'),
    );
    expect(await waitForCardsOnScreen(farIds)).toEqual(expect.arrayContaining(farIds));
  });

  it("a new empty canvas's minimap is empty, not the previous canvas's", async () => {
    await selectCanvas(demoName);
    await page().locator('[data-testid="node-card"]').first().waitFor();
    await page().waitForTimeout(200);
    expect(await minimapPaintedPixels()).toBeGreaterThan(100);
    await newCanvas('Blank page');
    await page().waitForTimeout(200);
    expect(await minimapPaintedPixels()).toBe(0);
  });

  it('the ⋯ menu closes on Escape and on a click outside it', async () => {
    const menu = page().getByRole('menu');
    await page().getByTestId('canvas-menu').click();
    await menu.waitFor();
    await page().keyboard.press('Escape');
    await menu.waitFor({ state: 'detached', timeout: 2_000 });

    await page().getByTestId('canvas-menu').click();
    await menu.waitFor();
    await page()
      .locator('.react-flow__pane')
      .click({ position: { x: 500, y: 500 } });
    await menu.waitFor({ state: 'detached', timeout: 2_000 });

    // A click on the button again still toggles it shut.
    await page().getByTestId('canvas-menu').click();
    await menu.waitFor();
    await page().getByTestId('canvas-menu').click();
    await menu.waitFor({ state: 'detached', timeout: 2_000 });
  });
});
