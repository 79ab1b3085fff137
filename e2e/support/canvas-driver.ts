import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { repoRoot } from './launch-app.ts';

/** User-level steps over the real app, by stable data-testids. */
export class CanvasDriver {
  constructor(readonly page: Page) {}

  card(nodeId: string): Locator {
    return this.page.locator(`[data-testid="node-card"][data-node-id="${nodeId}"]`);
  }

  get panel(): Locator {
    return this.page.getByTestId('node-panel');
  }

  async addQuestion(text: string): Promise<string> {
    await this.page.getByTestId('add-question').click();
    await this.panel.waitFor();
    const id = (await this.panel.getAttribute('data-node-id'))!;
    await this.editQuestion(id, text);
    return id;
  }

  async open(nodeId: string): Promise<void> {
    if (!(await this.card(nodeId).isVisible())) {
      await this.command('fit-view');
      await this.page.waitForTimeout(350);
    }
    const panel = this.page.locator(`[data-testid="node-panel"][data-node-id="${nodeId}"]`);
    // Under heavy load a click can land while the view is still settling; click again once.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await this.card(nodeId).locator('.card-header').click();
      try {
        await panel.waitFor({ timeout: 5_000 });
        return;
      } catch {
        // retry
      }
    }
    await panel.waitFor();
  }

  async editQuestion(nodeId: string, text: string): Promise<void> {
    if ((await this.panel.getAttribute('data-node-id')) !== nodeId) await this.open(nodeId);
    const input = this.panel.getByTestId('question-input');
    await input.fill(text);
    await input.blur();
    await this.card(nodeId).getByTestId('node-question').filter({ hasText: text }).waitFor();
  }

  /** Drags a card by its header. */
  async move(nodeId: string, dx: number, dy: number): Promise<void> {
    const box = (await this.card(nodeId).locator('.card-header').boundingBox())!;
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    await this.page.mouse.move(x + dx / 2, y + dy / 2, { steps: 5 });
    await this.page.mouse.move(x + dx, y + dy, { steps: 5 });
    await this.page.mouse.up();
  }

  /** Wires by dragging from the source card's output handle to the target card's input handle. */
  async connect(fromId: string, toId: string): Promise<void> {
    await this.command('fit-view');
    await this.page.waitForTimeout(350);
    const from = (await this.page
      .locator(`.react-flow__node[data-id="${fromId}"] .react-flow__handle.source`)
      .boundingBox())!;
    const to = (await this.page
      .locator(`.react-flow__node[data-id="${toId}"] .react-flow__handle.target`)
      .boundingBox())!;
    await this.page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 6 });
    await this.page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 6 });
    await this.page.mouse.up();
  }

  /** Runs a registered command the way the desktop menu does. */
  async command(id: string): Promise<boolean> {
    return this.page.evaluate(
      (commandId) =>
        (window as unknown as { weft: { commands: { run(id: string): Promise<boolean> } } }).weft.commands.run(
          commandId,
        ),
      id,
    );
  }

  async ask(nodeId: string): Promise<void> {
    await this.open(nodeId);
    const versions = await this.panel.getByTestId('version-item').count();
    await this.panel.getByTestId('ask').click();
    await this.panel.getByTestId('version-item').nth(versions).waitFor({ timeout: 30_000 });
  }

  async previewSources(): Promise<string[]> {
    return this.panel
      .getByTestId('preview-message')
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('data-source-node') ?? ''));
  }

  /** The preview's request hash once it is in (it is hashed in a worker: "hashing…" until then). */
  async previewHash(): Promise<string> {
    await this.panel.locator('[data-testid="preview-hash"][data-ready="true"]').waitFor();
    return (await this.panel.getByTestId('preview-hash').textContent())!.trim();
  }

  /** The open canvas's wires, read through the page's own store (what the person sees is drawn from it). */
  wires(): Promise<{ from: string; to: string; kind: string; mention: boolean }[]> {
    return this.page.evaluate(() => {
      const state = (
        window as unknown as {
          weft: {
            store: {
              getState(): {
                graph: { wires: Map<string, { from: string; to: string; kind: string; mention?: boolean }> };
              };
            };
          };
        }
      ).weft.store.getState();
      return [...state.graph.wires.values()].map((wire) => ({
        from: wire.from,
        to: wire.to,
        kind: wire.kind,
        mention: wire.mention === true,
      }));
    });
  }

  /** The question as stored on a node (the tokens, not what the field shows). */
  storedQuestion(nodeId: string): Promise<string> {
    return this.page.evaluate(
      (id) =>
        (
          window as unknown as {
            weft: { store: { getState(): { graph: { nodes: Map<string, { question: string }> } } } };
          }
        ).weft.store
          .getState()
          .graph.nodes.get(id)!.question,
      nodeId,
    );
  }

  /** Where the caret is in the question field. */
  caret(): Promise<number> {
    return this.page.evaluate(
      () => (document.querySelector('[data-testid="question-input"]') as HTMLTextAreaElement).selectionStart,
    );
  }

  /** Selects `length` characters of the first text in the panel's answer, as a person dragging over it would. */
  async selectInAnswer(length: number): Promise<string> {
    return this.page.evaluate((count) => {
      const box = document.querySelector('[data-testid="panel-answer"]')!;
      const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      let text = walker.nextNode();
      while (text && (text.textContent ?? '').trim().length < count) text = walker.nextNode();
      const range = document.createRange();
      const offset = (text!.textContent ?? '').search(/\S/);
      range.setStart(text!, offset);
      range.setEnd(text!, offset + count);
      const selection = window.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
      box.dispatchEvent(new MouseEvent('mouseup', { bubbles: true }));
      return selection.toString();
    }, length);
  }

  async screenshot(name: string): Promise<void> {
    const folder = path.join(repoRoot, 'docs/screenshots');
    mkdirSync(folder, { recursive: true });
    // Transient toasts are not part of the screen being documented.
    await this.page.evaluate(() => {
      const state = (
        window as unknown as {
          weft: { store: { getState(): { toasts: { id: string }[]; dismissToast(id: string): void } } };
        }
      ).weft.store.getState();
      for (const toast of state.toasts) state.dismissToast(toast.id);
    });
    await this.page.waitForTimeout(250);
    await this.page.screenshot({ path: path.join(folder, `${name}.png`) });
  }
}
