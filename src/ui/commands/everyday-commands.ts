import { plural } from '../../core/index.ts';
import { copyText } from './copy-text.ts';
import type { CommandContext } from './app-commands.ts';
import { canvasBridge } from './canvas-bridge.ts';
import type { Command } from './command.ts';
import { overlays } from './overlay-state.ts';

type AppCommand = Command<CommandContext>;

const state = (context: CommandContext) => context.store.getState();
const onCanvas = (context: CommandContext) => state(context).view === 'canvas' && state(context).graph !== null;

function focusedAnswer(context: CommandContext) {
  const { focusedNodeId, graph } = state(context);
  const node = focusedNodeId ? graph?.nodes.get(focusedNodeId) : undefined;
  if (node?.kind !== 'question') return null;
  return node.versions.find((version) => version.id === node.currentVersionId) ?? null;
}

async function layout(context: CommandContext, nodeIds: readonly string[] | null): Promise<void> {
  // dagre is loaded on first use: the first screen never lays out.
  const { autoLayout } = await import('./auto-layout.ts');
  const graph = state(context).graph;
  if (!graph) return;
  const change = autoLayout(graph, nodeIds, (nodeId) => canvasBridge.measuredSize(nodeId));
  if (!change) {
    state(context).toast('info', 'laid-out', 'Already laid out: nothing to move.');
    return;
  }
  if (state(context).apply(change))
    state(context).toast('info', 'laid-out', `Laid out ${plural(change.changes.length, 'node')} (Ctrl/⌘+Z to undo).`, {
      label: 'Undo',
      command: 'undo',
    });
}

/** Palette, shortcut sheet, auto-layout and copying: the everyday tools, in the one registry. */
export const everydayCommands: AppCommand[] = [
  {
    id: 'command-palette',
    label: 'Command palette…',
    shortcut: 'Mod+K',
    inTextFields: true,
    enabled: () => true,
    perform: () => overlays.setState({ palette: true, shortcuts: false, menu: null }),
  },
  {
    id: 'show-shortcuts',
    label: 'Keyboard shortcuts',
    shortcut: 'Shift+?',
    enabled: () => true,
    perform: () => overlays.setState({ shortcuts: true, palette: false, menu: null }),
  },
  {
    id: 'auto-layout',
    label: 'Auto-layout the canvas',
    shortcut: 'Shift+L',
    enabled: (context) => onCanvas(context) && (state(context).graph?.nodes.size ?? 0) > 1,
    perform: (context) => layout(context, null),
  },
  {
    id: 'auto-layout-selection',
    label: 'Auto-layout the selection',
    shortcut: 'Alt+L',
    enabled: (context) => onCanvas(context) && state(context).selectedNodeIds.length > 1,
    perform: (context) => layout(context, state(context).selectedNodeIds),
  },
  {
    id: 'copy-answer',
    label: 'Copy the answer',
    enabled: (context) => focusedAnswer(context) !== null,
    perform: async (context) => {
      await copyText(state(context), focusedAnswer(context)!.text, 'the answer');
    },
  },
  {
    id: 'copy-hash',
    label: 'Copy the full request hash',
    enabled: (context) => !!focusedAnswer(context)?.requestHash,
    perform: async (context) => {
      await copyText(state(context), focusedAnswer(context)!.requestHash!, 'the full request hash');
    },
  },
];
