import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyChange, emptyGraph, upstreamSnapshot, type GraphChange } from '../src/core/index.ts';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

// C32 in Chromium: a 2,000-node canvas whose answers carry plaques; zoomed out, the plaques stand in for the cards
// and their text stays legible on screen. An ask (offline receipt, rule plaque) shows its plaque on the card.
let app: LaunchedApp;
let canvas: CanvasDriver;
const page = () => app.page;
const ROWS = 40;
const COLUMNS = 50;

interface PageStore {
  getState(): {
    apply(change: unknown): boolean;
    flush(): Promise<void>;
    setSelection(ids: string[]): void;
    createCanvas(name: string): Promise<string>;
  };
}
type PageWindow = { weft: { store: PageStore } };

beforeAll(async () => {
  app = await launchApp();
  canvas = new CanvasDriver(app.page);
  await page().locator('[data-testid="node-card"]').first().waitFor();
  const changes = mapChanges();
  await page().evaluate(async (batch) => {
    const store = (window as unknown as PageWindow).weft.store;
    await store.getState().createCanvas('Map');
    if (!store.getState().apply({ type: 'batch', changes: batch })) throw new Error('the map canvas was refused');
    await store.getState().flush();
  }, changes);
}, 120_000);
afterAll(async () => {
  await app?.close();
});

/**
 * The 2,000 cells, each answered with its plaque. Each version records its node's real fingerprint (the core
 * function the store uses, on the same nodes), so none of them shows as stale.
 */
function mapChanges(): GraphChange[] {
  let graph = emptyGraph({ id: 'map', name: 'Map', workingDirectory: null, createdAt: 1 });
  const context = { now: 1, newId: () => 'unused' };
  const changes: GraphChange[] = [];
  for (let row = 0; row < ROWS; row += 1)
    for (let column = 0; column < COLUMNS; column += 1) {
      const id = `m-${row}-${column}`;
      const question = `Cell ${row}.${column}?`;
      const addNode: GraphChange = {
        type: 'add-node',
        node: { id, kind: 'question', question, position: { x: column * 400, y: row * 240 } },
      };
      const added = applyChange(graph, addNode, context);
      if (!added.ok) throw added.error;
      graph = added.value.graph;
      changes.push(
        addNode,
        {
          type: 'add-version',
          nodeId: id,
          version: {
            id: `v-${id}`,
            text: `Topic ${row}.${column} is settled. It rests on step ${column}. Nothing else follows.`,
            question,
            model: 'offline/receipt',
            requestHash: null,
            ...upstreamSnapshot(graph, id),
            origin: 'demo',
            status: 'complete',
            branchOf: null,
          },
        },
        {
          type: 'set-plaque',
          nodeId: id,
          versionId: `v-${id}`,
          plaque: {
            topic: `Topic ${row}.${column}`,
            takeaway: `Topic ${row}.${column} is settled`,
            reason: '',
            sentences: [1, 2, 3],
            abstract: [`Topic ${row}.${column} is settled.`, `It rests on step ${column}.`, 'Nothing else follows.'],
            source: 'rule',
            model: null,
            writtenAt: 1,
          },
        },
      );
    }
  return changes;
}

async function zoomToSelection(ids: string[]): Promise<void> {
  await page().evaluate(
    (selection) => (window as unknown as PageWindow).weft.store.getState().setSelection(selection),
    ids,
  );
  await canvas.command('zoom-to-selection');
}

describe('map mode (C32)', () => {
  it('zoomed out on 2,000 cards, plaques replace the cards and read at a legible size', async () => {
    await page().locator('[data-testid="node-card"][data-node-id^="m-"]').first().waitFor();
    await zoomToSelection(['m-10-8', 'm-10-18', 'm-14-8']);
    const card = page().locator('[data-testid="node-card"][data-node-id="m-12-14"]');
    await card
      .locator('[data-testid="plaque-map"]')
      .waitFor({ timeout: 5_000 })
      .catch(async (error: unknown) => {
        const seen = await page().evaluate(() => ({
          zoom: getComputedStyle(document.querySelector('.react-flow')!).getPropertyValue('--weft-zoom'),
          detail: document.querySelector('[data-node-id="m-12-14"]')?.getAttribute('data-detail'),
          html: document.querySelector('[data-node-id="m-12-14"]')?.innerHTML.slice(0, 300),
        }));
        throw new Error(`${String(error)} ${JSON.stringify(seen)}`);
      });
    expect(await card.getAttribute('data-detail')).toBe('summary');
    // Each answer records its node's real fingerprint: none of the 2,000 is stale.
    await expect
      .poll(() =>
        page().evaluate(
          () =>
            (window as unknown as { weft: { store: { getState(): { shown: Set<string> } } } }).weft.store.getState()
              .shown.size,
        ),
      )
      .toBe(0);
    expect(await page().getByTestId('replay-chip').count()).toBe(0);
    await expect(card.locator('.plaque-topic').textContent()).resolves.toBe('Topic 12.14');
    await expect(card.locator('.plaque-takeaway').textContent()).resolves.toBe('Topic 12.14 is settled');
    // #29: the plaque's summary type and conclusiveness (a plaque stored before #29: the rule's reading of its text).
    await expect(card.getByTestId('plaque-grade').textContent()).resolves.toBe('finding · settled');
    // No answer text and no question title in map mode: the plaque is the card.
    expect(await card.locator('[data-testid="node-answer"]').count()).toBe(0);
    expect(await card.locator('.lod-title').count()).toBe(0);
    const sizes = await page().evaluate(() => {
      const element = document.querySelector('[data-node-id="m-12-14"]')!;
      const zoom = Number(getComputedStyle(document.querySelector('.react-flow')!).getPropertyValue('--weft-zoom'));
      const px = (selector: string) => parseFloat(getComputedStyle(element.querySelector(selector)!).fontSize) * zoom;
      const box = element.querySelector('.plaque-topic')!.getBoundingClientRect();
      return { zoom, topic: px('.plaque-topic'), takeaway: px('.plaque-takeaway'), topicHeight: box.height };
    });
    expect(sizes.zoom).toBeGreaterThan(0.2);
    expect(sizes.zoom).toBeLessThan(0.45);
    // Screen pixels: at least 13 px for the topic and 11 px for the takeaway, whatever the zoom.
    expect(sizes.topic).toBeGreaterThanOrEqual(12.9);
    expect(sizes.takeaway).toBeGreaterThanOrEqual(10.9);
    expect(sizes.topicHeight).toBeGreaterThanOrEqual(13);
    await canvas.screenshot('map-mode');
  });

  it('zoomed in again, the full card shows the answer with its plaque line', async () => {
    await zoomToSelection(['m-12-14']);
    const card = page().locator('[data-testid="node-card"][data-node-id="m-12-14"]');
    await card.locator('[data-testid="card-plaque"]').waitFor({ timeout: 5_000 });
    expect(await card.getAttribute('data-detail')).toBeNull();
    await expect(card.locator('[data-testid="card-plaque"]').textContent()).resolves.toContain(
      'Topic 12.14 is settled',
    );
    expect(await card.locator('[data-testid="plaque-map"]').count()).toBe(0);
  });

  it('an answer gets its plaque after the ask, shown on the card and in the panel, and an edit shows at once', async () => {
    await page().evaluate(async () => {
      const store = (window as unknown as PageWindow).weft.store;
      await store.getState().createCanvas('Ask');
      store.getState().apply({
        type: 'add-node',
        node: { id: 'asked', kind: 'question', question: 'Why is the sky blue?', position: { x: 0, y: 0 } },
      });
    });
    await canvas.ask('asked');
    // The offline receipt cannot summarise: the rule writes the plaque, and it says what was asked (issue 30.5).
    const writer = canvas.panel.getByTestId('plaque-writer');
    await writer.waitFor({ timeout: 10_000 });
    expect(await writer.textContent()).toContain('The question (an offline receipt has no answer to summarise)');
    const takeaway = (await canvas.panel.getByTestId('plaque-takeaway').textContent())!;
    expect(takeaway).toBe('Why is the sky blue?');
    // The full card shows the question already: a plaque that only restates it is left to map mode.
    const cardPlaque = page().locator('[data-node-id="asked"] [data-testid="card-plaque"]');
    expect(await cardPlaque.count()).toBe(0);

    await canvas.panel.getByTestId('plaque-edit').click();
    const topic = (await canvas.panel.getByTestId('plaque-topic-input').inputValue()).trim();
    await canvas.panel.getByTestId('plaque-takeaway-input').fill(`${topic} explained by a person`);
    await canvas.panel.getByTestId('plaque-save').click();
    await expect(canvas.panel.getByTestId('plaque-writer').textContent()).resolves.toContain('Edited by you');
    await expect(cardPlaque.textContent()).resolves.toContain(`${topic} explained by a person`);
    // Display only: the edit marked nothing stale.
    expect(await page().locator('[data-testid="node-card"][data-node-id="asked"]').getAttribute('data-stale')).toBe(
      'false',
    );
  });
});
