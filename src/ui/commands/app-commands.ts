import { isLive, type GraphChange } from '../../core/index.ts';
import type { WeftStore } from '../store/index.ts';
import { authoringCommands } from './authoring-commands.ts';
import { canvasBridge } from './canvas-bridge.ts';
import type { Command } from './command.ts';
import { CommandRegistry } from './command-registry.ts';

export interface CommandContext {
  store: WeftStore;
  /** What a toast's button names (e.g. the admission an Undo undoes); absent from keys and menus. */
  argument?: string;
}

type AppCommand = Command<CommandContext>;

const state = (context: CommandContext) => context.store.getState();

/** The nodes a command acts on: the selection, else the node open in the panel. */
function targets(context: CommandContext): string[] {
  const { selectedNodeIds, focusedNodeId, graph } = state(context);
  const ids = selectedNodeIds.length ? selectedNodeIds : focusedNodeId ? [focusedNodeId] : [];
  return ids.filter((id) => graph?.nodes.has(id));
}

function focusedQuestion(context: CommandContext) {
  const { focusedNodeId, graph } = state(context);
  const node = focusedNodeId ? graph?.nodes.get(focusedNodeId) : undefined;
  return node && node.kind === 'question' ? node : null;
}

function addNode(context: CommandContext, draft: Extract<GraphChange, { type: 'add-node' }>['node']): void {
  const store = state(context);
  const before = new Set(store.graph?.nodes.keys() ?? []);
  if (!store.apply({ type: 'add-node', node: { ...draft, position: canvasBridge.newNodePosition() } })) return;
  const created = [...(state(context).graph?.nodes.keys() ?? [])].find((id) => !before.has(id));
  if (created) {
    state(context).setSelection([created]);
    state(context).focusNode(created);
    canvasBridge.ensureVisible(created);
  }
}

const onCanvas = (context: CommandContext) =>
  state(context).view === 'canvas' && state(context).graph !== null && !state(context).opening;

export const appCommands: AppCommand[] = [
  {
    id: 'undo',
    label: 'Undo',
    shortcut: 'Mod+Z',
    enabled: (context) => state(context).past.length > 0,
    perform: (context) => state(context).undo(),
  },
  {
    id: 'redo',
    label: 'Redo',
    shortcut: 'Shift+Mod+Z',
    enabled: (context) => state(context).future.length > 0,
    perform: (context) => state(context).redo(),
  },
  {
    id: 'new-question',
    label: 'New question',
    shortcut: 'Q',
    enabled: onCanvas,
    perform: (context) => addNode(context, { kind: 'question', question: '' }),
  },
  {
    id: 'new-note',
    label: 'New note',
    shortcut: 'N',
    enabled: onCanvas,
    perform: (context) => addNode(context, { kind: 'note', text: '' }),
  },
  {
    id: 'new-frame',
    label: 'New frame',
    enabled: onCanvas,
    perform: (context) => addNode(context, { kind: 'frame', label: 'Frame', size: { width: 520, height: 340 } }),
  },
  {
    id: 'import-material',
    label: 'Import material…',
    shortcut: 'M',
    enabled: onCanvas,
    perform: () => canvasBridge.openMaterialDialog(),
  },
  {
    id: 'delete',
    label: 'Delete',
    shortcut: 'Delete',
    enabled: (context) => onCanvas(context) && targets(context).length > 0,
    perform: (context) => {
      const ids = targets(context);
      if (state(context).apply({ type: 'batch', changes: ids.map((nodeId) => ({ type: 'delete-node', nodeId })) })) {
        state(context).setSelection([]);
        state(context).focusNode(null);
        state(context).toast(
          'info',
          'deleted',
          `Deleted ${ids.length === 1 ? 'a node' : `${ids.length} nodes`} (Ctrl/⌘+Z).`,
          { label: 'Undo', command: 'undo' },
        );
      }
    },
  },
  {
    id: 'archive',
    label: 'Archive / unarchive',
    shortcut: 'Mod+E',
    enabled: (context) => onCanvas(context) && targets(context).length > 0,
    perform: (context) => {
      const graph = state(context).graph!;
      const ids = targets(context);
      const allArchived = ids.every((id) => graph.nodes.get(id)?.archived);
      state(context).apply({
        type: 'batch',
        changes: ids.map((nodeId) => ({ type: allArchived ? 'unarchive' : 'archive', nodeId })),
      });
    },
  },
  {
    id: 'ask',
    label: 'Ask',
    shortcut: 'Mod+Enter',
    inTextFields: true,
    enabled: (context) => {
      const node = focusedQuestion(context);
      return !!node && isLive(node) && !state(context).streams[node.id];
    },
    perform: (context) => {
      void state(context).ask(focusedQuestion(context)!.id);
    },
  },
  {
    id: 'regenerate',
    label: 'Regenerate (adds a version)',
    shortcut: 'Alt+Enter',
    inTextFields: true,
    enabled: (context) => {
      const node = focusedQuestion(context);
      return !!node && isLive(node) && node.versions.length > 0 && !state(context).streams[node.id];
    },
    perform: (context) => {
      void state(context).ask(focusedQuestion(context)!.id);
    },
  },
  {
    id: 'regenerate-branch',
    label: 'Regenerate as a sibling branch',
    shortcut: 'Shift+Mod+Enter',
    inTextFields: true,
    enabled: (context) => {
      const node = focusedQuestion(context);
      return !!node && isLive(node) && node.currentVersionId !== null && !state(context).streams[node.id];
    },
    perform: (context) => {
      const node = focusedQuestion(context)!;
      void state(context).ask(node.id, { branchOf: node.currentVersionId });
    },
  },
  {
    id: 'stop',
    label: 'Stop',
    shortcut: 'Escape',
    inTextFields: false,
    enabled: (context) => Object.keys(state(context).streams).length > 0,
    perform: (context) => {
      for (const id of Object.keys(state(context).streams)) state(context).stop(id);
      state(context).stopReplay();
    },
  },
  {
    id: 'search',
    label: 'Search the canvas',
    shortcut: 'Mod+F',
    inTextFields: true,
    enabled: onCanvas,
    perform: (context) => state(context).setSearch(true),
  },
  {
    id: 'toggle-preview',
    label: 'Toggle will-send preview',
    shortcut: 'Mod+.',
    inTextFields: true,
    enabled: () => true,
    perform: (context) => state(context).togglePreview(),
  },
  { id: 'fit-view', label: 'Fit view', shortcut: 'Shift+!', enabled: onCanvas, perform: () => canvasBridge.fitView() },
  {
    id: 'zoom-to-selection',
    label: 'Zoom to selection',
    shortcut: 'Shift+@',
    enabled: (context) => onCanvas(context) && targets(context).length > 0,
    perform: (context) => canvasBridge.zoomToNodes(targets(context)),
  },
  {
    id: 'replay',
    label: 'Replay stale answers…',
    shortcut: 'Alt+R',
    enabled: (context) => state(context).shown.size > 0 && !state(context).replay?.running,
    perform: (context) => state(context).openReplayDialog(true),
  },
  {
    id: 'show-canvas',
    label: 'Show canvas',
    shortcut: 'Alt+1',
    inTextFields: true,
    enabled: () => true,
    perform: (context) => state(context).setView('canvas'),
  },
  {
    id: 'show-events',
    label: 'Show event log',
    shortcut: 'Alt+2',
    inTextFields: true,
    enabled: () => true,
    perform: (context) => state(context).setView('events'),
  },
  {
    id: 'show-results',
    label: 'Show results (checks per question and model)',
    inTextFields: true,
    enabled: () => true,
    perform: (context) => state(context).setView('results'),
  },
  {
    id: 'show-settings',
    label: 'Show settings',
    shortcut: 'Alt+3',
    inTextFields: true,
    enabled: () => true,
    perform: (context) => state(context).setView('settings'),
  },
  {
    id: 'select-all',
    label: 'Select all',
    shortcut: 'Mod+A',
    enabled: onCanvas,
    perform: (context) => state(context).setSelection([...(state(context).graph?.nodes.keys() ?? [])]),
  },
];

export function createAppCommands(): CommandRegistry<CommandContext> {
  return new CommandRegistry([...appCommands, ...authoringCommands]);
}
