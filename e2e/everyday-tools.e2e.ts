import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

// The everyday tools as a person uses them in Chromium: the empty canvas, palette and shortcut sheet, copy,
// editing an answer, comparing versions, the context menu, placement, auto-layout and the Replay list (provider rows
// are in settings-providers.e2e.ts, the image material in materials.e2e.ts).
let app: LaunchedApp;
let canvas: CanvasDriver;
const page = () => app.page;

interface PageVersion {
  id: string;
  text: string;
  origin: string;
  requestHash: string | null;
}
interface PageNode {
  id: string;
  kind: string;
  position: { x: number; y: number };
  versions?: PageVersion[];
  currentVersionId?: string | null;
}
interface PageStore {
  getState(): {
    activeCanvasId: string;
    graph: { nodes: Map<string, PageNode>; wires: Map<string, { id: string; from: string; to: string }> };
    shown: Set<string>;
    selectedNodeIds: string[];
    apply(change: unknown): boolean;
    setSelection(ids: string[]): void;
    focusNode(id: string | null): void;
    flush(): Promise<void>;
  };
}
type PageWindow = { weft: { store: PageStore } };

const node = (id: string) =>
  page().evaluate((nodeId) => {
    const found = (window as unknown as PageWindow).weft.store.getState().graph.nodes.get(nodeId)!;
    return JSON.parse(JSON.stringify(found)) as PageNode;
  }, id);

const clipboard = () => page().evaluate(() => navigator.clipboard.readText());

async function newCanvas(name: string): Promise<void> {
  await page().getByTestId('canvas-menu').click();
  await page().getByTestId('canvas-new').click();
  await page().getByTestId('canvas-name').fill(name);
  await page().getByTestId('canvas-name-save').click();
  await page().getByTestId('canvas-dialog').waitFor({ state: 'detached' });
  await page().waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 0);
}

/** Adds wired questions through the store (the flow under test is what comes after). */
async function addChain(questions: string[], prefix: string): Promise<string[]> {
  return page().evaluate(
    ({ texts, label }) => {
      const state = (window as unknown as PageWindow).weft.store.getState();
      const ids = texts.map((_, index) => `${label}-${index}`);
      state.apply({
        type: 'batch',
        changes: [
          ...texts.map((question, index) => ({
            type: 'add-node',
            node: {
              id: ids[index],
              kind: 'question',
              question,
              position: { x: 40 + index * 380, y: 60 + (index % 2) * 260 },
            },
          })),
          ...ids.slice(1).map((id, index) => ({ type: 'wire', from: ids[index], to: id, kind: 'solid' })),
        ],
      });
      return ids;
    },
    { texts: questions, label: prefix },
  );
}

/** The screen point halfway along a wire's drawn path, so a click lands on that wire and no other. */
function wireMidpoint(wireId: string): Promise<{ x: number; y: number }> {
  return page().evaluate((id) => {
    const path = document.querySelector<SVGPathElement>(`[data-testid="rf__edge-${id}"] path.react-flow__edge-path`);
    if (!path) throw new Error(`no drawn path for wire ${id}`);
    const middle = path.getPointAtLength(path.getTotalLength() / 2);
    const onScreen = new DOMPoint(middle.x, middle.y).matrixTransform(path.getScreenCTM()!);
    return { x: onScreen.x, y: onScreen.y };
  }, wireId);
}

beforeAll(async () => {
  app = await launchApp();
  canvas = new CanvasDriver(app.page);
  const origin = new URL(app.server.url).origin;
  await app.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
});
afterAll(async () => {
  await app?.close();
});

describe('everyday tools', () => {
  it('an empty canvas says what to do first, and its button makes the first question', async () => {
    await page().locator('[data-testid="node-card"]').first().waitFor();
    await newCanvas('Everyday');
    await page().getByTestId('empty-canvas-hint').waitFor();
    await canvas.screenshot('empty-canvas');
    await page().getByTestId('empty-new-question').click();
    await canvas.panel.waitFor();
    expect(await page().getByTestId('empty-canvas-hint').count()).toBe(0);
    await page().keyboard.press('Escape');
  });

  it('the command palette finds a command as you type and Enter runs it; the shortcut sheet lists the registry', async () => {
    const before = await page().locator('[data-testid="node-card"]').count();
    await page()
      .locator('.react-flow__pane')
      .click({ position: { x: 600, y: 500 } });
    await page().keyboard.press('Control+K');
    await page().getByTestId('command-palette').waitFor();
    await page().getByTestId('palette-input').fill('new note');
    expect(await page().getByTestId('palette-item').first().getAttribute('data-command')).toBe('new-note');
    await canvas.screenshot('command-palette');
    await page().keyboard.press('Enter');
    await page().getByTestId('command-palette').waitFor({ state: 'detached' });
    await page().waitForFunction(
      (count) => document.querySelectorAll('[data-testid="node-card"]').length > count,
      before,
    );

    await page()
      .locator('.react-flow__pane')
      .click({ position: { x: 600, y: 500 } });
    await page().keyboard.press('Shift+?');
    await page().getByTestId('shortcut-sheet').waitFor();
    const rows = await page()
      .getByTestId('shortcut-row')
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('data-command')));
    expect(rows).toEqual(expect.arrayContaining(['undo', 'ask', 'command-palette', 'auto-layout', 'show-shortcuts']));
    await canvas.screenshot('shortcut-sheet');
    await page().keyboard.press('Escape');
    await page().getByTestId('shortcut-sheet').waitFor({ state: 'detached' });
  });

  it('copies the answer and its full hash; an edit becomes a manual version with highlighted, copyable code', async () => {
    const id = await canvas.addQuestion('What does a loom do?');
    await canvas.ask(id);
    const generated = (await node(id)).versions![0]!;
    await canvas.panel.getByTestId('copy-answer').click();
    expect(await clipboard()).toBe(generated.text);
    await canvas.panel.getByTestId('copy-hash').click();
    expect(await clipboard()).toBe(generated.requestHash);
    expect(generated.requestHash).toMatch(/^[0-9a-f]{64}$/);

    await canvas.panel.getByTestId('edit-answer').click();
    const edited = `A loom holds the warp taut while the weft is woven across.\n\n\`\`\`ts\nconst threads = ['warp', 'weft'];\n\`\`\``;
    await canvas.panel.getByTestId('answer-editor').fill(edited);
    await canvas.panel.getByTestId('save-manual-version').click();
    await canvas.panel.getByTestId('version-item').nth(1).waitFor();
    const after = await node(id);
    expect(after.versions!.map((version) => version.origin)).toEqual(['generated', 'manual']);
    expect(after.versions![0]!.text).toBe(generated.text);
    expect(after.currentVersionId).toBe(after.versions![1]!.id);

    // The code block is coloured once highlight.js has loaded, and its button copies the code alone.
    await canvas.panel.locator('[data-testid="panel-answer"] code .hljs-string').first().waitFor();
    await canvas.panel.getByTestId('copy-code').click();
    expect(await clipboard()).toBe("const threads = ['warp', 'weft'];");
    await canvas.screenshot('answer-edited-highlighted');

    await canvas.panel.getByTestId('compare-versions').click();
    const dialog = page().getByTestId('compare-dialog');
    await dialog.waitFor();
    expect(await dialog.getByTestId('diff-left').textContent()).toContain(generated.text.slice(0, 40));
    const added = await dialog.getByTestId('diff-right').getByTestId('diff-added').allTextContents();
    expect(added.join('')).toContain('warp taut');
    await canvas.screenshot('version-compare');
    await dialog.getByTestId('compare-close').click();
  });

  it('wires end in arrowheads; a new card goes beside the selected one and the view does not move', async () => {
    const [parent, child] = await addChain(['Warp?', 'Weft?'], 'arrow');
    await canvas.command('fit-view');
    await page().waitForTimeout(400);
    const marker = await page()
      .locator(`.react-flow__edge[data-id] path.react-flow__edge-path`)
      .first()
      .getAttribute('marker-end');
    expect(marker).toMatch(/url\(/);

    await canvas.open(child!);
    const viewport = () => page().locator('.react-flow__viewport').getAttribute('style');
    const before = await viewport();
    const anchor = (await node(child!)).position;
    await page()
      .locator('.react-flow__pane')
      .click({ position: { x: 5, y: 300 } });
    await page().evaluate((id) => {
      const state = (window as unknown as PageWindow).weft.store.getState();
      state.setSelection([id]);
    }, child!);
    await canvas.command('new-question');
    const created = await page().evaluate(
      () => (window as unknown as PageWindow).weft.store.getState().selectedNodeIds[0]!,
    );
    expect(created).not.toBe(child);
    const placed = (await node(created)).position;
    expect(placed.x).toBeGreaterThan(anchor.x + 300);
    expect(placed.y).toBeGreaterThanOrEqual(anchor.y);
    await page().waitForTimeout(300);
    expect(await viewport()).toBe(before);
    expect(parent).toBeTruthy();
  });

  it('right-click menus: a card, a wire and the pane; auto-layout from the pane menu is one undo step', async () => {
    await newCanvas('Layout');
    const ids = await addChain(['Root?', 'Branch one?', 'Branch two?', 'Leaf?'], 'layout');
    await page().evaluate((all) => {
      const state = (window as unknown as PageWindow).weft.store.getState();
      state.apply({ type: 'wire', from: all[0], to: all[2], kind: 'solid' });
    }, ids);
    await canvas.command('fit-view');
    await page().waitForTimeout(400);
    const before = await Promise.all(ids.map(async (id) => (await node(id)).position));

    await canvas.card(ids[1]!).locator('.card-header').click({ button: 'right' });
    await page().getByTestId('context-menu').waitFor();
    expect(await page().getByTestId('context-menu').getAttribute('data-target')).toBe('node');
    expect(await page().getByTestId('menu-delete').isEnabled()).toBe(true);
    await canvas.screenshot('context-menu-node');
    await page().keyboard.press('Escape');

    await page()
      .locator('.react-flow__pane')
      .click({ button: 'right', position: { x: 20, y: 300 } });
    await page().getByTestId('context-menu').waitFor();
    expect(await page().getByTestId('context-menu').getAttribute('data-target')).toBe('pane');
    await canvas.screenshot('context-menu-pane');
    await page().getByTestId('menu-auto-layout').click();
    await page().waitForFunction(
      ([first, second]) => {
        const nodes = (window as unknown as PageWindow).weft.store.getState().graph.nodes;
        return nodes.get(second!)!.position.x > nodes.get(first!)!.position.x + 300;
      },
      [ids[0], ids[1]],
    );
    const laid = await Promise.all(ids.map(async (id) => (await node(id)).position));
    // Left to right along the wires: root, then each card after the one that feeds it.
    expect(laid[2]!.x).toBeGreaterThan(laid[1]!.x + 300);
    expect(laid[3]!.x).toBeGreaterThan(laid[2]!.x + 300);
    await canvas.command('fit-view');
    await canvas.screenshot('auto-layout');

    await page().keyboard.press('Control+Z');
    await page().waitForFunction(
      ([first, x]) => (window as unknown as PageWindow).weft.store.getState().graph.nodes.get(first!)!.position.x === x,
      [ids[1], before[1]!.x] as const,
    );
    expect(await Promise.all(ids.map(async (id) => (await node(id)).position))).toEqual(before);

    await page().keyboard.press('Control+Shift+Z');
    await canvas.command('fit-view');
    await page().waitForTimeout(400);
    // The wire from the root to the first branch, right-clicked at its own midpoint (read from the SVG path).
    const wireId = await page().evaluate(
      ([from, to]) =>
        [...(window as unknown as PageWindow).weft.store.getState().graph.wires.values()].find(
          (wire) => wire.from === from && wire.to === to,
        )!.id,
      [ids[0], ids[1]] as const,
    );
    const wireKind = () =>
      page().evaluate((id) => {
        const wire = (window as unknown as PageWindow).weft.store.getState().graph.wires.get(id) as
          { kind: string; depth?: string } | undefined;
        return wire ? `${wire.kind}${wire.depth ? `:${wire.depth}` : ''}` : 'gone';
      }, wireId);
    const rightClickWire = async () => {
      const point = await wireMidpoint(wireId);
      await page().mouse.click(point.x, point.y, { button: 'right' });
      await page().getByTestId('context-menu').waitFor();
      expect(await page().getByTestId('context-menu').getAttribute('data-target')).toBe('wire');
    };
    expect(await wireKind()).toBe('solid');
    await rightClickWire();
    await page().getByTestId('menu-wire-quote').waitFor();
    await canvas.screenshot('context-menu-wire');
    await page().getByTestId('menu-wire-quote').click();
    await page().getByTestId('context-menu').waitFor({ state: 'detached' });
    await page().waitForFunction(
      (id) =>
        document
          .querySelector(`[data-testid="rf__edge-${id}"] path.react-flow__edge-path`)
          ?.getAttribute('style')
          ?.includes('dasharray'),
      wireId,
    );
    expect(await wireKind()).toBe('dashed:quote');

    const wiresBefore = await page().evaluate(
      () => (window as unknown as PageWindow).weft.store.getState().graph.wires.size,
    );
    await rightClickWire();
    await page().getByTestId('menu-wire-remove').click();
    await page().waitForFunction((id) => !document.querySelector(`[data-testid="rf__edge-${id}"]`), wireId);
    expect(await wireKind()).toBe('gone');
    expect(await page().evaluate(() => (window as unknown as PageWindow).weft.store.getState().graph.wires.size)).toBe(
      wiresBefore - 1,
    );
    // The other wires are untouched: the menu acted on the wire under the pointer.
    expect(
      await page().evaluate(
        (to) =>
          [...(window as unknown as PageWindow).weft.store.getState().graph.wires.values()].some(
            (wire) => wire.to === to,
          ),
        ids[2],
      ),
    ).toBe(true);
  });

  it('the Replay dialog lists the stale nodes in run order with prices; an unticked node does not run', async () => {
    await newCanvas('Replay list');
    const ids = await addChain(['Fibre?', 'Yarn?', 'Cloth?'], 'replay');
    for (const id of ids) await canvas.ask(id);
    // A new answer upstream (to a reworded question) leaves the two below it stale.
    await canvas.editQuestion(ids[0]!, 'Fibre, exactly?');
    await canvas.ask(ids[0]!);
    await page().waitForFunction(() => (window as unknown as PageWindow).weft.store.getState().shown.size === 2);
    await page().getByTestId('replay-chip').click();
    const dialog = page().getByTestId('replay-dialog');
    await dialog.waitFor();
    const listed = await dialog
      .getByTestId('replay-item')
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('data-node-id')));
    expect(listed).toEqual([ids[1], ids[2]]);
    expect(await dialog.getByTestId('replay-item-price').allTextContents()).toHaveLength(2);
    await dialog.getByTestId('replay-tick').first().uncheck();
    expect(await dialog.getByTestId('replay-count').textContent()).toBe('1');
    await canvas.screenshot('replay-list');
    await dialog.getByTestId('replay-confirm').click();
    await page().waitForFunction(
      (id) => (window as unknown as PageWindow).weft.store.getState().graph.nodes.get(id)!.versions!.length === 2,
      ids[2]!,
      { timeout: 30_000 },
    );
    await page().waitForFunction(() => !document.querySelector('[data-testid="replay-progress"]'));
    expect((await node(ids[1]!)).versions).toHaveLength(1);
    expect(
      await page().evaluate((id) => (window as unknown as PageWindow).weft.store.getState().shown.has(id), ids[1]!),
    ).toBe(true);
  });
  it('canvases that share a name are labelled with the day they changed in the switcher', async () => {
    await newCanvas('Layout');
    const labels = await page()
      .getByTestId('canvas-select')
      .locator('option')
      .evaluateAll((options) => options.map((option) => option.textContent ?? ''));
    const layouts = labels.filter((label) => label.startsWith('Layout'));
    expect(layouts).toHaveLength(2);
    for (const label of layouts) expect(label).toMatch(/^Layout — \S.+\d/);
    await canvas.screenshot('canvas-same-name');
  });
});
