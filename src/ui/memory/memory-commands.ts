import { commandRegistry } from '../commands/run-command.ts';
import { MEMORY_UNDO_COMMAND } from '../store/memory-after-ask.ts';
import { memoryClient } from './memory-client.ts';

/** Undo of the newest admission: the command the admission toast's button runs (eight seconds). */
export function registerMemoryCommands(): void {
  if (commandRegistry.list().some((command) => command.id === MEMORY_UNDO_COMMAND)) return;
  commandRegistry.register({
    id: MEMORY_UNDO_COMMAND,
    label: 'Undo the last memory admission',
    enabled: () => memoryClient.view.getState().pendingUndo !== null,
    async perform({ store }) {
      const undone = await memoryClient.undoLast();
      // The undo is a decision too: it goes into the log of the canvas the admission came from, when open.
      if (undone.ok && store.getState().graph?.canvas.id === undone.canvasId)
        for (const event of undone.events) store.getState().apply({ type: 'record', event });
      store.getState().toast(undone.ok ? 'info' : 'error', undone.ok ? 'memory-undone' : 'memory-undo', undone.message);
    },
  });
}
