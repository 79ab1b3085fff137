import { commandRegistry } from '../commands/index.ts';
import { MEMORY_UNDO_COMMAND, memoryClient } from '../store/index.ts';

/** Undo of an admission: the command each admission toast's button runs for its own admission (eight seconds). */
export function registerMemoryCommands(): void {
  if (commandRegistry.list().some((command) => command.id === MEMORY_UNDO_COMMAND)) return;
  commandRegistry.register({
    id: MEMORY_UNDO_COMMAND,
    label: 'Undo the last memory admission',
    enabled: () => memoryClient.view.getState().pendingUndos.length > 0,
    async perform({ store, argument }) {
      // From a toast: that toast's admission; from the keyboard or a menu: the newest one.
      const undone = argument === undefined ? await memoryClient.undoLast() : await memoryClient.undo(argument);
      // The undo is a decision too: it goes into the log of the canvas the admission came from, when open.
      if (undone.ok && store.getState().graph?.canvas.id === undone.canvasId)
        for (const event of undone.events) store.getState().apply({ type: 'record', event });
      store.getState().toast(undone.ok ? 'info' : 'error', undone.ok ? 'memory-undone' : 'memory-undo', undone.message);
    },
  });
}
