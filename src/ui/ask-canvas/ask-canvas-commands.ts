import { commandRegistry } from '../commands/index.ts';
import { askCanvasClient } from './ask-canvas-client.ts';

export const ASK_CANVAS_COMMAND = 'ask-canvas';

/** Opens or closes the side chat (toolbar, palette, keyboard, desktop menu). */
export function registerAskCanvasCommands(): void {
  if (commandRegistry.list().some((command) => command.id === ASK_CANVAS_COMMAND)) return;
  commandRegistry.register({
    id: ASK_CANVAS_COMMAND,
    label: 'Ask the canvas',
    shortcut: 'Shift+Mod+K',
    enabled: ({ store }) => store.getState().graph !== null,
    perform({ store }) {
      const open = !askCanvasClient.view.getState().open;
      if (open) store.getState().setView('canvas');
      askCanvasClient.setOpen(open);
    },
  });
}
