import type { WeftStore } from '../store/index.ts';
import { canvasBridge } from './canvas-bridge.ts';
import type { Command } from './command.ts';

/** The same shape as app-commands' context (declared here so the two files do not import each other). */
interface CommandContext {
  store: WeftStore;
}

const state = (context: CommandContext) => context.store.getState();
const selected = (context: CommandContext) =>
  state(context).view === 'canvas' && state(context).selectedNodeIds.length >= 2;

function reveal(id: string | null): void {
  if (id) canvasBridge.ensureVisible(id);
}

/** C33 canvas helpers, in the one registry (keyboard, palette, menus, window.weft). */
export const authoringCommands: Command<CommandContext>[] = [
  {
    id: 'merge-selection',
    label: 'Merge selection into a synthesis node',
    shortcut: 'Shift+M',
    enabled: selected,
    perform: (context) => reveal(state(context).mergeSelection()),
  },
  {
    id: 'condense-selection',
    label: 'Condense the selected chain into a conclusion',
    shortcut: 'Shift+C',
    enabled: selected,
    perform: (context) => reveal(state(context).condenseSelection()),
  },
];
