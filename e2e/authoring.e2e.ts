import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

// Authoring a study (C29–C33) in the built app in Chromium, with the offline receipt model.
let app: LaunchedApp;
let canvas: CanvasDriver;
const ids = { source: '', branch: '', cited: '', asker: '' };

beforeAll(async () => {
  app = await launchApp();
  canvas = new CanvasDriver(app.page);
});
afterAll(async () => {
  await app?.close();
});

const page = () => app.page;

describe('authoring in the browser', () => {
  it('branch from a passage: select text, Ask about this, the new node carries the passage', async () => {
    await page().locator('[data-testid="node-card"]').first().waitFor();
    await page().getByTestId('canvas-menu').click();
    await page().getByTestId('canvas-new').click();
    await page().getByTestId('canvas-name').fill('Authoring');
    await page().getByTestId('canvas-name-save').click();
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 0);

    ids.source = await canvas.addQuestion('Explain photosynthesis in plants.');
    await canvas.ask(ids.source);
    const selected = await canvas.selectInAnswer(24);
    expect(selected.length).toBe(24);
    await canvas.panel.getByTestId('selection-bar').waitFor();
    await canvas.panel.getByTestId('ask-about-this').click();
    await page()
      .locator(`[data-testid="node-panel"]:not([data-node-id="${ids.source}"])`)
      .getByTestId('passage-section')
      .waitFor();
    ids.branch = (await canvas.panel.getAttribute('data-node-id'))!;
    expect(await canvas.panel.getByTestId('passage-section').getAttribute('data-status')).toBe('at');
    expect(await canvas.wires()).toContainEqual({
      from: ids.source,
      to: ids.branch,
      kind: 'solid',
      mention: false,
    });
    await canvas.editQuestion(ids.branch, 'What does this part mean?');
    const last = canvas.panel.getByTestId('preview-message').last();
    expect(await last.textContent()).toContain(`[Regarding this passage: "${selected}"]`);
    expect(await last.textContent()).toContain('What does this part mean?');
    await canvas.card(ids.branch).getByTestId('badge-passage').waitFor();
    await canvas.screenshot('branch-from-passage');

    // Another version of the source without the passage: the branch marks it, and keeps sending it.
    await page().evaluate((sourceId) => {
      const state = (
        window as unknown as { weft: { store: { getState(): { apply(change: unknown): boolean } } } }
      ).weft.store.getState();
      state.apply({
        type: 'add-version',
        nodeId: sourceId,
        version: {
          text: 'A rewritten answer that says something else.',
          question: 'Explain photosynthesis in plants.',
          model: 'offline/receipt',
          requestHash: null,
          upstreamFingerprint: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
          upstream: { base: null, parts: [], removed: [] },
          origin: 'imported',
          status: 'complete',
          branchOf: null,
        },
      });
    }, ids.source);
    await canvas.card(ids.branch).locator('[data-testid="badge-passage"][data-status="missing"]').waitFor();
    await canvas.panel.getByTestId('passage-missing').waitFor();
    expect(await canvas.panel.getByTestId('preview-message').last().textContent()).toContain(selected);
    // Switching the source back to the first version finds the passage again.
    await canvas.open(ids.source);
    await canvas.panel.getByTestId('version-item').first().click();
    await canvas.card(ids.branch).locator('[data-testid="badge-passage"][data-status="at"]').waitFor();
  });

  it('@-mention: the field shows @Title, the mention is a dashed wire both ways, and the caret steps over it', async () => {
    ids.cited = ids.source;
    ids.asker = await canvas.addQuestion('Placeholder');
    const input = canvas.panel.getByTestId('question-input');
    await input.fill('How does @photo');
    await canvas.panel.getByTestId('mention-picker').waitFor();
    await canvas.panel.getByTestId('mention-option').filter({ hasText: 'Explain photosynthesis' }).click();
    await page().waitForFunction(() => document.querySelectorAll('.react-flow__edge').length === 2, undefined, {
      timeout: 10_000,
    });
    expect(await canvas.wires()).toContainEqual({
      from: ids.cited,
      to: ids.asker,
      kind: 'dashed',
      mention: true,
    });
    // The person reads @Title, highlighted; the stored question keeps the token that is the wire.
    expect(await input.inputValue()).toBe('How does @Explain photosynthesis in plants. ');
    expect(await canvas.panel.getByTestId('mention-chip').textContent()).toBe('@Explain photosynthesis in plants.');
    expect(await canvas.storedQuestion(ids.asker)).toBe(`How does @[Explain photosynthesis in plants.](${ids.cited}) `);
    await input.pressSequentially('compare to respiration?');
    await input.blur();
    // The compiled question reads @Title; the source arrives as a quoted reference.
    const messages = canvas.panel.getByTestId('preview-message');
    expect(await messages.last().textContent()).toContain(
      'How does @Explain photosynthesis in plants. compare to respiration?',
    );
    expect(await canvas.panel.locator('[data-testid="preview-message"][data-layer="references"]').count()).toBe(1);
    // The highlight is drawn over the mention's own text in the field.
    const chip = (await canvas.panel.getByTestId('mention-chip').boundingBox())!;
    const field = (await input.boundingBox())!;
    expect(chip.x).toBeGreaterThan(field.x);
    expect(chip.y).toBeGreaterThan(field.y);
    expect(chip.y + chip.height).toBeLessThan(field.y + field.height);
    await canvas.screenshot('mention-wire');

    // Typing right before the mention adds text and keeps the mention whole.
    await input.click();
    await page().keyboard.press('Control+Home');
    for (let step = 0; step < 'How does '.length; step++) await page().keyboard.press('ArrowRight');
    await page().keyboard.type('it, ');
    const start = 'How does it, '.length;
    const end = start + '@Explain photosynthesis in plants.'.length;
    expect(await input.inputValue()).toBe('How does it, @Explain photosynthesis in plants. compare to respiration?');
    expect(await canvas.caret()).toBe(start);
    // The arrow keys step over a mention instead of into it.
    await page().keyboard.press('ArrowRight');
    expect(await canvas.caret()).toBe(end);
    await page().keyboard.press('ArrowLeft');
    expect(await canvas.caret()).toBe(start);
    await page().keyboard.press('ArrowRight');
    // Backspace at its end deletes the whole mention, and the wire with it.
    await page().keyboard.press('Backspace');
    expect(await input.inputValue()).toBe('How does it,  compare to respiration?');
    expect(await canvas.caret()).toBe(start);
    await input.blur();
    await page().waitForFunction(() => document.querySelectorAll('.react-flow__edge').length === 1);
    expect((await canvas.wires()).filter((wire) => wire.to === ids.asker)).toEqual([]);
    expect(await canvas.storedQuestion(ids.asker)).toBe('How does it,  compare to respiration?');

    // A renamed node shows its new title in the mention.
    await input.fill('Again @photo');
    await canvas.panel.getByTestId('mention-option').first().click();
    await page().waitForFunction(() => document.querySelectorAll('.react-flow__edge').length === 2);
    const noteId = await page().evaluate(() => {
      const state = (
        window as unknown as {
          weft: {
            store: {
              getState(): { graph: { nodes: Map<string, unknown> }; apply(change: unknown): boolean };
            };
          };
        }
      ).weft.store.getState();
      const before = new Set(state.graph.nodes.keys());
      state.apply({ type: 'add-node', node: { kind: 'note', text: 'Light reactions', position: { x: 900, y: 600 } } });
      const after = (
        window as unknown as { weft: { store: { getState(): { graph: { nodes: Map<string, unknown> } } } } }
      ).weft.store.getState().graph.nodes;
      return [...after.keys()].find((id) => !before.has(id))!;
    });
    await canvas.open(ids.asker);
    await input.click();
    await page().keyboard.press('Control+End');
    await page().keyboard.type('and @light');
    await canvas.panel.getByTestId('mention-option').filter({ hasText: 'Light reactions' }).click();
    await page().waitForFunction(() => document.querySelectorAll('.react-flow__edge').length === 3);
    expect(await input.inputValue()).toBe('Again @Explain photosynthesis in plants. and @Light reactions ');
    await input.blur();
    await page().evaluate((id) => {
      (window as unknown as { weft: { store: { getState(): { apply(change: unknown): boolean } } } }).weft.store
        .getState()
        .apply({ type: 'edit-node', nodeId: id, patch: { text: 'Calvin cycle' } });
    }, noteId);
    // The field keeps showing the title the request carries, marked as renamed, until the person updates it.
    const update = canvas.panel.getByTestId('mention-update');
    await update.waitFor();
    expect(await update.getAttribute('title')).toBe('renamed to Calvin cycle — update');
    expect(await input.inputValue()).toBe('Again @Explain photosynthesis in plants. and @Light reactions ');
    expect(await canvas.panel.locator('[data-testid="mention-chip"].renamed').allTextContents()).toEqual([
      '@Light reactions',
    ]);
    expect(await canvas.card(ids.asker).getByTestId('node-question').textContent()).toContain('@Light reactions');
    expect(await messages.last().textContent()).toContain('and @Light reactions');
    await canvas.screenshot('mention-renamed');
    await update.click();
    await page().waitForFunction(
      () =>
        (document.querySelector('[data-testid="question-input"]') as HTMLTextAreaElement).value ===
        'Again @Explain photosynthesis in plants. and @Calvin cycle ',
    );
    expect(await canvas.storedQuestion(ids.asker)).toBe(
      `Again @[Explain photosynthesis in plants.](${ids.cited}) and @[Calvin cycle](${noteId}) `,
    );
    expect(await canvas.card(ids.asker).getByTestId('node-question').textContent()).toContain('@Calvin cycle');
    expect(await messages.last().textContent()).toContain('and @Calvin cycle');
    expect(await update.count()).toBe(0);
    expect(await canvas.panel.locator('[data-testid="mention-chip"].renamed').count()).toBe(0);
    expect(await canvas.panel.getByTestId('mention-chip').allTextContents()).toEqual([
      '@Explain photosynthesis in plants.',
      '@Calvin cycle',
    ]);

    // And removing the wire removes the mention.
    await page().evaluate((asker) => {
      const state = (
        window as unknown as {
          weft: {
            store: {
              getState(): {
                graph: { wires: Map<string, { id: string; from: string; to: string }> };
                apply(change: unknown): boolean;
              };
            };
          };
        }
      ).weft.store.getState();
      for (const wire of [...state.graph.wires.values()].filter((item) => item.to === asker))
        state.apply({ type: 'unwire', wireId: wire.id });
    }, ids.asker);
    await canvas
      .card(ids.asker)
      .getByTestId('node-question')
      .filter({ hasText: /^Again\s+and\s*$/ })
      .waitFor();
    await page().waitForFunction(
      () => (document.querySelector('[data-testid="question-input"]') as HTMLTextAreaElement).value === 'Again and ',
    );
    expect(await canvas.panel.getByTestId('mention-chip').count()).toBe(0);
    await page().evaluate((id) => {
      (window as unknown as { weft: { store: { getState(): { apply(change: unknown): boolean } } } }).weft.store
        .getState()
        .apply({ type: 'delete-node', nodeId: id });
    }, noteId);
  });

  it('@-mention picker: the arrow keys move the active option, Enter or Tab insert it, Escape closes it', async () => {
    await canvas.open(ids.asker);
    const input = canvas.panel.getByTestId('question-input');
    await input.fill('Keys ');
    await page().keyboard.type('@');
    const picker = canvas.panel.getByTestId('mention-picker');
    await picker.waitFor();
    const options = canvas.panel.getByTestId('mention-option');
    const count = await options.count();
    expect(count).toBeGreaterThan(1);
    expect(await picker.getAttribute('role')).toBe('listbox');
    expect(await input.getAttribute('aria-controls')).toBe(await picker.getAttribute('id'));
    /** The option the field names as active, and which options say they are selected. */
    const active = async () => {
      const id = await input.getAttribute('aria-activedescendant');
      const selected = await options.evaluateAll((items) =>
        items.map((item, index) => (item.getAttribute('aria-selected') === 'true' ? index : -1)).filter((i) => i >= 0),
      );
      const ids = await options.evaluateAll((items) => items.map((item) => item.id));
      return { index: ids.indexOf(id ?? ''), selected, role: await options.first().getAttribute('role') };
    };
    expect(await active()).toEqual({ index: 0, selected: [0], role: 'option' });
    await page().keyboard.press('ArrowDown');
    expect(await active()).toEqual({ index: 1, selected: [1], role: 'option' });
    await page().keyboard.press('ArrowUp');
    await page().keyboard.press('ArrowUp');
    expect(await active()).toEqual({ index: count - 1, selected: [count - 1], role: 'option' });

    // Escape closes the list and inserts nothing; the field keeps what was typed.
    await page().keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });
    expect(await input.getAttribute('aria-activedescendant')).toBeNull();
    expect(await input.inputValue()).toBe('Keys @');
    expect(await canvas.panel.getByTestId('mention-chip').count()).toBe(0);

    // A new @ opens it again; Enter inserts the active option (the first), as a wire.
    await page().keyboard.press('Backspace');
    await page().keyboard.type('@Expl');
    await picker.waitFor();
    const first = (await options.first().textContent())!;
    await page().keyboard.press('Enter');
    await picker.waitFor({ state: 'detached' });
    expect(await input.inputValue()).toBe('Keys @Explain photosynthesis in plants. ');
    expect(first).toContain('Explain photosynthesis in plants.');
    await page().waitForFunction(
      (asker) =>
        [
          ...(
            window as unknown as {
              weft: { store: { getState(): { graph: { wires: Map<string, { to: string; mention?: boolean }> } } } };
            }
          ).weft.store
            .getState()
            .graph.wires.values(),
        ].some((wire) => wire.to === asker && wire.mention === true),
      ids.asker,
    );

    // Tab inserts the option moved to with ArrowDown.
    await page().keyboard.type('and @');
    await picker.waitFor();
    await page().keyboard.press('ArrowDown');
    const second = (await options.nth(1).textContent())!.replace(/^\S+\s/, '').trim();
    await page().keyboard.press('Tab');
    await picker.waitFor({ state: 'detached' });
    expect(await input.inputValue()).toBe(`Keys @Explain photosynthesis in plants. and @${second} `);
    await expect.poll(() => input.evaluate((field) => field === document.activeElement)).toBe(true);
    // Back to the question the later steps name this node by; its mentions (and their wires) go with the text.
    await input.fill('Again and ');
    await input.blur();
    await expect.poll(async () => (await canvas.wires()).filter((wire) => wire.to === ids.asker)).toEqual([]);
  });

  it('roles: set on a node, sent first with its source, inherited below; highlights and fan-out', async () => {
    await canvas.open(ids.source);
    await canvas.panel.getByTestId('role-mode').selectOption('set');
    const roleText = canvas.panel.getByTestId('role-text');
    await roleText.fill('You are a plant biologist. Be precise.');
    await roleText.blur();
    await canvas.card(ids.source).getByTestId('badge-role').waitFor();
    await canvas.open(ids.branch);
    const first = canvas.panel.getByTestId('preview-message').first();
    expect(await first.getAttribute('data-layer')).toBe('role');
    expect(await first.getAttribute('data-source-node')).toBe(ids.source);
    expect(await first.textContent()).toContain('You are a plant biologist. Be precise.');
    await canvas.panel.getByTestId('role-in-force').waitFor();
    await canvas.screenshot('role-in-preview');

    // Highlight a span of the source's answer; "highlights only" changes what the branch is sent.
    await canvas.open(ids.source);
    const highlighted = await canvas.selectInAnswer(18);
    await canvas.panel.getByTestId('highlight-this').click();
    await canvas.panel.getByTestId('highlight-item').waitFor();
    await canvas.panel.getByTestId('highlight-mode').selectOption('only');
    await canvas.screenshot('highlights');
    await canvas.open(ids.branch);
    const answerMessage = canvas.panel.locator('[data-testid="preview-message"][data-layer="chain"]').nth(1);
    const sentText = (await answerMessage.textContent()) ?? '';
    // The role edit made the source stale (C29), so its answer arrives behind the stale mark.
    expect(sentText).toContain(`[Highlights of this answer]\n- "${highlighted}"`);

    // Fan out: the rule proposes (offline model), the person edits, nodes are made.
    // Count nodes in the store: cards outside the view are not rendered.
    const nodeCount = () =>
      page().evaluate(
        () =>
          (
            window as unknown as { weft: { store: { getState(): { graph: { nodes: Map<string, unknown> } } } } }
          ).weft.store.getState().graph.nodes.size,
      );
    const before = await nodeCount();
    await canvas.open(ids.source);
    await canvas.panel.getByTestId('fan-out').click();
    const list = canvas.panel.getByTestId('fan-out-list');
    await list.waitFor();
    // The rule's proposal is what the person starts from (a single question gets its four angles).
    await expect.poll(() => list.inputValue()).toContain('What evidence bears on:');
    await list.fill('What is chlorophyll for?\nWhy are leaves green?');
    await canvas.screenshot('fan-out-editor');
    await canvas.panel.getByTestId('fan-out-make').click();
    await expect.poll(nodeCount).toBe(before + 2);

    // Merge two selected nodes from the toolbar.
    await page().evaluate(
      (selection) =>
        (window as unknown as { weft: { store: { getState(): { setSelection(ids: string[]): void } } } }).weft.store
          .getState()
          .setSelection(selection),
      [ids.branch, ids.asker],
    );
    await page().getByTestId('merge-selection').click();
    await expect.poll(nodeCount).toBe(before + 3);
    const merged = (await canvas.panel.getAttribute('data-node-id'))!;
    // C14: Weft wrote the synthesis question, and its card and panel say so until the person edits it.
    expect(await canvas.card(merged).getByTestId('question-by-app').textContent()).toBe('Written by Weft');
    await canvas.panel.getByTestId('question-by-app-hint').waitFor();

    // Give the other merged parent its own role: the synthesis node must now be given an explicit pick.
    await canvas.open(ids.asker);
    await canvas.panel.getByTestId('role-mode').selectOption('set');
    await canvas.panel.getByTestId('role-text').fill('Be brief.');
    await canvas.panel.getByTestId('role-text').blur();
    await canvas.open(merged);
    await canvas.card(merged).getByTestId('badge-role-conflict').waitFor();
    await canvas.panel.getByTestId('role-conflict').waitFor();
    expect(await canvas.panel.locator('[data-testid="preview-message"][data-layer="role"]').count()).toBe(0);
    await canvas.screenshot('role-pick');
    await canvas.panel.getByText('“Be brief.” — from Again').click();
    await canvas.panel.getByTestId('role-in-force').waitFor();
    expect(await canvas.card(merged).getByTestId('badge-role-conflict').count()).toBe(0);
    expect(await canvas.panel.getByTestId('preview-message').first().textContent()).toContain('Be brief.');
    // The pick stays changeable: clearing it brings the choice back, and picking again settles it again.
    await canvas.panel.getByTestId('role-repick').click();
    await canvas.panel.getByTestId('role-conflict').waitFor();
    await canvas.panel.getByText('“Be brief.” — from Again').click();
    await canvas.panel.getByTestId('role-in-force').waitFor();
    await canvas.command('fit-view');
    await page().waitForTimeout(400);
    await canvas.screenshot('merge-and-fan-out');
  });

  it('condense a chain into a conclusion; a model picked on a node shows as a pin on its card', async () => {
    const nodeCount = () =>
      page().evaluate(
        () =>
          (
            window as unknown as { weft: { store: { getState(): { graph: { nodes: Map<string, unknown> } } } } }
          ).weft.store.getState().graph.nodes.size,
      );
    const before = await nodeCount();
    // The source is wired solid into the branch: a chain of two, which Condense concludes.
    await page().evaluate(
      (selection) =>
        (window as unknown as { weft: { store: { getState(): { setSelection(ids: string[]): void } } } }).weft.store
          .getState()
          .setSelection(selection),
      [ids.branch, ids.source],
    );
    await page().getByTestId('condense-selection').click();
    await expect.poll(nodeCount).toBe(before + 1);
    const conclusion = (await canvas.panel.getAttribute('data-node-id'))!;
    expect(await canvas.storedQuestion(conclusion)).toBe(
      'State the conclusion this line of inquiry reaches, in a few sentences, with the reasons it rests on.',
    );
    expect(await canvas.card(conclusion).getByTestId('node-question').textContent()).toContain(
      'State the conclusion this line of inquiry reaches',
    );
    expect(await canvas.card(conclusion).getByTestId('question-by-app').textContent()).toBe('Written by Weft');
    expect(await canvas.wires()).toContainEqual({
      from: ids.branch,
      to: conclusion,
      kind: 'solid',
      mention: false,
    });
    await canvas.screenshot('condense');

    // Picking a model on the node pins it: the card carries the pin and its short name.
    expect(await canvas.card(conclusion).getByTestId('model-pin').count()).toBe(0);
    await canvas.panel.getByTestId('model-picker').selectOption('offline/receipt');
    const pin = canvas.card(conclusion).getByTestId('model-pin');
    await pin.waitFor();
    expect(await pin.textContent()).toBe('📌 offline receipt');
    expect(await pin.getAttribute('title')).toBe('Pinned to offline/receipt');
    await canvas.screenshot('model-pin');
  });
});
