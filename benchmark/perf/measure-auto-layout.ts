// `auto_layout_500_ms` for bench:ui: the Auto-layout command on a 500-node canvas in the running app (dagre, one
// batch of moves through the store, stale sets and the save scheduled), median of a few runs, each undone after.
// Page code holds no named inner functions (tsx would wrap them in a `__name` helper the page does not have).
import type { Page } from 'playwright-core';
import { scale } from './quick-mode.ts';

export const AUTO_LAYOUT_NODES = 500;

export async function measureAutoLayout(page: Page): Promise<string> {
  const nodes = scale(AUTO_LAYOUT_NODES, 60);
  const times = await page.evaluate(
    async ({ count, rounds }) => {
      type State = {
        createCanvas(name: string): Promise<string>;
        apply(change: unknown): boolean;
        undo(): void;
        setSelection(ids: string[]): void;
      };
      const weft = (
        window as unknown as {
          weft: { store: { getState(): State }; commands: { run(id: string): Promise<boolean> } };
        }
      ).weft;
      await weft.store.getState().createCanvas('Auto-layout benchmark');
      const ids = Array.from({ length: count }, (_, index) => `layout-${index}`);
      // Chains of ten, each chain fed by a node of the one before: a DAG with long ranks and cross wires.
      const changes: unknown[] = ids.map((id, index) => ({
        type: 'add-node',
        node: {
          id,
          kind: 'question',
          question: `Layout question ${index + 1}?`,
          position: { x: (index * 7919) % 9000, y: (index * 104729) % 7000 },
        },
      }));
      for (let index = 1; index < count; index += 1) {
        const from = index % 10 === 0 ? index - 5 : index - 1;
        changes.push({ type: 'wire', from: ids[from], to: ids[index], kind: 'solid' });
      }
      weft.store.getState().apply({ type: 'batch', changes });
      weft.store.getState().setSelection([]);
      const samples: number[] = [];
      for (let round = 0; round < rounds; round += 1) {
        const started = performance.now();
        if (!(await weft.commands.run('auto-layout'))) throw new Error('auto-layout did not run');
        samples.push(performance.now() - started);
        weft.store.getState().undo();
      }
      return samples;
    },
    { count: nodes, rounds: scale(5, 2) },
  );
  const sorted = [...times].sort((a, b) => a - b);
  return `auto_layout_500_ms: ${Math.round(sorted[Math.floor(sorted.length / 2)]!)} ms`;
}
