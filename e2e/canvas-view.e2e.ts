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

  it('a click on the minimap moves the view to the cards drawn there, even cards never drawn on the canvas', async () => {
    await newCanvas('Map reading');
    const [near] = await addQuestionsAt([{ x: 0, y: 0 }], 'Near');
    expect(await waitForCardsOnScreen([near!])).toContain(near);
    // A note far away: the minimap paints it in the note colour; the canvas has never drawn it.
    await page().evaluate(async () => {
      const state = (window as unknown as PageWindow).weft.store.getState();
      state.apply({
        type: 'add-node',
        node: { id: 'far-note', kind: 'note', text: 'Far away.', position: { x: 9000, y: 7000 } },
      });
      await state.flush();
    });
    expect(await cardsOnScreen()).not.toContain('far-note');
    const spot = await page().evaluate(() => {
      const element = document.querySelector<HTMLCanvasElement>('[data-testid="minimap"] canvas')!;
      const ratio = element.width / element.getBoundingClientRect().width;
      const data = element.getContext('2d')!.getImageData(0, 0, element.width, element.height).data;
      for (let index = 0; index < data.length; index += 4) {
        // #f1e3b0, the note colour.
        if (Math.abs(data[index]! - 241) < 4 && Math.abs(data[index + 1]! - 227) < 4 && data[index + 3]! > 200) {
          const pixel = index / 4;
          return { x: (pixel % element.width) / ratio + 0.5, y: Math.floor(pixel / element.width) / ratio + 0.5 };
        }
      }
      return null;
    });
    expect(spot).not.toBeNull();
    await page().getByTestId('minimap').locator('canvas').click({ position: spot! });
    expect(await waitForCardsOnScreen(['far-note'])).toContain('far-note');
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

  it('a mirrored-turn card shows whole lines only, never half of a clipped one', async () => {
    await newCanvas('Mirrored turns');
    const question =
      'Refactor the ledger so that transfers between accounts are atomic, keep the old API working for the ' +
      'reports module, add tests for the overdraft case and the currency rounding, then explain what changed ' +
      'and why the old code could double-spend when two transfers raced each other on the same account.';
    const answer = [
      'I made `transfer` atomic by moving both balance updates into one transaction.',
      '',
      '## What changed',
      '- `src/ledger/transfer.ts` now locks both accounts in id order, so two transfers cannot deadlock.',
      '- The reports module keeps calling `legacyTransfer`, which wraps the new function.',
      '',
      '```ts',
      'await ledger.transaction(async (tx) => { await tx.debit(from, amount); await tx.credit(to, amount); });',
      '```',
      '',
      'The old code read both balances, then wrote them back separately, so a second transfer could read the',
      'first balance before the first write landed.',
    ].join('\n');
    const id = await page().evaluate(
      async ({ question: text, answer: reply }) => {
        const state = (window as unknown as PageWindow).weft.store.getState();
        state.apply({
          type: 'add-node',
          node: {
            id: 'mirrored-turn',
            kind: 'mirror',
            position: { x: 0, y: 0 },
            source: {
              runner: 'claude-code',
              sessionId: 'session-1',
              turnKey: 'claude-code:session-1#1',
              turnNumber: 1,
              question: text,
              answer: reply,
              model: 'claude',
              at: 1,
              steps: [],
              delegatedBy: null,
            },
          },
        });
        await state.flush();
        return 'mirrored-turn';
      },
      { question, answer },
    );
    await canvas.card(id).waitFor();
    const cut = await page().evaluate((nodeId) => {
      const card = document.querySelector(`[data-testid="node-card"][data-node-id="${nodeId}"]`)!;
      const straddling: string[] = [];
      for (const box of card.querySelectorAll<HTMLElement>('.card-question, .card-body > .clamp')) {
        // Overflow is clipped at the padding box: a line crossing its bottom edge shows only in part.
        const clipBottom = box.getBoundingClientRect().bottom - parseFloat(getComputedStyle(box).borderBottomWidth);
        const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
        for (let text = walker.nextNode(); text; text = walker.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(text);
          for (const line of range.getClientRects())
            if (line.height > 0 && line.top < clipBottom - 1 && line.bottom > clipBottom + 1)
              straddling.push(`${box.className}: “${(text.textContent ?? '').slice(0, 40)}”`);
        }
      }
      return straddling;
    }, id);
    expect(cut).toEqual([]);
  });

  it('a long hash in a preview message wraps inside the panel instead of running out of it', async () => {
    const hash = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    await canvas.addQuestion(`Does the receipt sha256:${hash}${hash} match the request I sent?`);
    await canvas.panel.getByTestId('preview-message').first().waitFor();
    const overflowing = await canvas.panel.evaluate((panel) => {
      const edge = panel.getBoundingClientRect().right;
      return [...panel.querySelectorAll<HTMLElement>('[data-testid="preview-message"], .preview-text')]
        .filter(
          (element) => element.scrollWidth > element.clientWidth + 1 || element.getBoundingClientRect().right > edge,
        )
        .map((element) => `${element.className}: ${element.scrollWidth} > ${element.clientWidth}`);
    });
    expect(overflowing).toEqual([]);
  });
});
