import type { WeftStore } from '../store/index.ts';
import { canvasBridge } from '../commands/index.ts';

/** One click from a line's provenance to the node it came from: its canvas opens and the node is centred. */
export async function openOrigin(store: WeftStore, canvasId: string, nodeId: string): Promise<void> {
  const state = store.getState();
  if (state.activeCanvasId !== canvasId) await state.openCanvas(canvasId);
  if (!store.getState().graph?.nodes.has(nodeId)) {
    store
      .getState()
      .toast('error', 'memory-origin-missing', 'The node this line came from is no longer on its canvas.');
    return;
  }
  store.getState().setView('canvas');
  store.getState().setSelection([nodeId]);
  store.getState().focusNode(nodeId);
  canvasBridge.centerOn(nodeId);
}
