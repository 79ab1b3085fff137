import { useCallback, useMemo, useRef, type MouseEvent as ReactMouseEvent } from 'react';
import { useReactFlow } from '@xyflow/react';
import type { GraphChange } from '../../core/index.ts';
import { useEscape, useOutsidePress, useWeft, useWeftStore } from '../kit/index.ts';
import { displayShortcut, overlays, useOverlays, type MenuTarget, commandRegistry, isMac } from '../commands/index.ts';
import type { WeftStore } from '../store/index.ts';

const close = () => overlays.setState({ menu: null });

type Entry =
  | { command: string; label?: string }
  | { label: string; testId: string; run: () => void; enabled?: boolean; danger?: boolean }
  | 'separator';

/** The three right-click handlers React Flow takes; they open the menu on what was clicked. */
export function useContextMenuHandlers() {
  const store = useWeftStore();
  const flow = useReactFlow();
  const open = useCallback((event: ReactMouseEvent | MouseEvent, target: MenuTarget) => {
    event.preventDefault();
    overlays.setState({ menu: { target, x: event.clientX, y: event.clientY } });
  }, []);
  return useMemo(
    () => ({
      onNodeContextMenu: (event: ReactMouseEvent, node: { id: string }) => {
        // A right-click on a card outside the selection acts on that card, as a click would.
        const state = store.getState();
        if (!state.selectedNodeIds.includes(node.id)) state.setSelection([node.id]);
        state.focusNode(node.id);
        open(event, { kind: 'node', nodeId: node.id });
      },
      onEdgeContextMenu: (event: ReactMouseEvent, edge: { id: string }) =>
        open(event, { kind: 'wire', wireId: edge.id }),
      onPaneContextMenu: (event: ReactMouseEvent | MouseEvent) =>
        open(event, {
          kind: 'pane',
          flowPosition: flow.screenToFlowPosition({ x: event.clientX, y: event.clientY }),
        }),
    }),
    [store, flow, open],
  );
}

function addAt(store: WeftStore, node: Extract<GraphChange, { type: 'add-node' }>['node']): void {
  const state = store.getState();
  const before = new Set(state.graph?.nodes.keys() ?? []);
  if (!state.apply({ type: 'add-node', node })) return;
  const created = [...(store.getState().graph?.nodes.keys() ?? [])].find((id) => !before.has(id));
  if (created) {
    store.getState().setSelection([created]);
    store.getState().focusNode(created);
  }
}

function entriesFor(target: MenuTarget, store: WeftStore): Entry[] {
  const apply = (change: GraphChange) => store.getState().apply(change);
  if (target.kind === 'wire') {
    const wire = store.getState().graph?.wires.get(target.wireId);
    if (!wire) return [];
    const wireKind = (spec: { kind: 'solid' } | { kind: 'dashed'; depth: 'quote' | 'full' }) =>
      apply({ type: 'set-wire-kind', wireId: wire.id, ...spec });
    return [
      { label: 'Solid (full turn)', testId: 'menu-wire-solid', run: () => wireKind({ kind: 'solid' }) },
      {
        label: 'Dashed · quote',
        testId: 'menu-wire-quote',
        run: () => wireKind({ kind: 'dashed', depth: 'quote' }),
      },
      { label: 'Dashed · full', testId: 'menu-wire-full', run: () => wireKind({ kind: 'dashed', depth: 'full' }) },
      'separator',
      {
        label: 'Remove wire',
        testId: 'menu-wire-remove',
        danger: true,
        run: () => apply({ type: 'unwire', wireId: wire.id }),
      },
    ];
  }
  if (target.kind === 'pane') {
    const position = { x: Math.round(target.flowPosition.x), y: Math.round(target.flowPosition.y) };
    return [
      {
        label: 'New question here',
        testId: 'menu-new-question',
        run: () => addAt(store, { kind: 'question', question: '', position }),
      },
      {
        label: 'New note here',
        testId: 'menu-new-note',
        run: () => addAt(store, { kind: 'note', text: '', position }),
      },
      { command: 'import-material' },
      'separator',
      { command: 'auto-layout' },
      { command: 'fit-view' },
      { command: 'select-all' },
      'separator',
      { command: 'command-palette' },
      { command: 'show-shortcuts' },
    ];
  }
  return [
    { command: 'ask' },
    { command: 'regenerate-branch' },
    { command: 'copy-answer' },
    { command: 'copy-hash' },
    'separator',
    { command: 'auto-layout-selection' },
    { command: 'archive' },
    { command: 'delete', label: 'Delete' },
  ];
}

/** The right-click menu on a card, a wire or the pane: each entry a registry command or a typed change. */
export function CanvasContextMenu() {
  const store = useWeftStore();
  const menu = useOverlays((state) => state.menu);
  // Entries read `enabled` against the current graph.
  useWeft((state) => state.graph);
  const ref = useRef<HTMLDivElement>(null);
  useEscape(menu !== null, close);
  useOutsidePress(menu !== null, ref, close);
  if (!menu) return null;
  const context = { store };
  const entries = entriesFor(menu.target, store);
  const left = Math.min(menu.x, window.innerWidth - 230);
  const top = Math.min(menu.y, window.innerHeight - entries.length * 32 - 12);
  return (
    <div
      ref={ref}
      className="context-menu"
      role="menu"
      data-testid="context-menu"
      data-target={menu.target.kind}
      style={{ left, top }}
      onContextMenu={(event) => event.preventDefault()}
    >
      {entries.map((entry, index) => {
        if (entry === 'separator') return <hr key={index} />;
        if ('command' in entry) {
          const command = commandRegistry.get(entry.command);
          if (!command) return null;
          return (
            <button
              key={entry.command}
              role="menuitem"
              data-testid={`menu-${entry.command}`}
              disabled={!command.enabled(context)}
              onClick={() => {
                close();
                void commandRegistry.run(entry.command, context);
              }}
            >
              {entry.label ?? command.label}
              {command.shortcut && <span className="keys">{displayShortcut(command.shortcut, isMac)}</span>}
            </button>
          );
        }
        return (
          <button
            key={entry.testId}
            role="menuitem"
            data-testid={entry.testId}
            disabled={entry.enabled === false}
            style={entry.danger ? { color: 'var(--danger)' } : undefined}
            onClick={() => {
              close();
              entry.run();
            }}
          >
            {entry.label}
          </button>
        );
      })}
    </div>
  );
}
