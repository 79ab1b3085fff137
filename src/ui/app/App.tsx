import { useCallback, useEffect, useState } from 'react';
import { AtlasLayer, AtlasTabs } from '../atlas/index.ts';
import { AskCanvasPanel } from '../ask-canvas/index.ts';
import { CanvasView } from '../canvas/index.ts';
import { commandRegistry, isMac } from '../commands/index.ts';
import { MemoryLayer } from '../memory/MemoryLayer.tsx';
import { MemoryTab } from '../memory/MemoryTab.tsx';
import { RecallSync } from '../recall/RecallSync.tsx';
import {
  EventLogView,
  MaterialDialog,
  NodePanel,
  ReplayChip,
  ReplayDialog,
  RerunUnder,
  ResultsView,
  SettingsView,
} from '../panels/index.ts';
import { CanvasSwitcher } from './CanvasSwitcher.tsx';
import { CommandPalette } from './CommandPalette.tsx';
import { ShortcutSheet } from './ShortcutSheet.tsx';
import { CanvasSync } from './CanvasSync.tsx';
import { ErrorBoundary, useWeft, useWeftStore } from '../kit/index.ts';
import { Toasts } from './Toasts.tsx';
import type { WorkspaceView } from '../store/index.ts';

function isTextField(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

function useKeyboardCommands(): void {
  const store = useWeftStore();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const command = commandRegistry.match(event, isMac, isTextField(event.target));
      if (!command || !command.enabled({ store })) return;
      event.preventDefault();
      void command.perform({ store });
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [store]);
}

const VIEWS: { view: WorkspaceView; label: string }[] = [
  { view: 'canvas', label: 'Canvas' },
  { view: 'events', label: 'Event log' },
  { view: 'results', label: 'Results' },
  { view: 'settings', label: 'Settings' },
];

export function App() {
  const store = useWeftStore();
  const ready = useWeft((state) => state.ready);
  const view = useWeft((state) => state.view);
  // The workspace stays mounted under the Atlas, Why and Memory pages, so closing one returns to it as it was.
  const workspaceView = useWeft((state) => state.workspaceView);
  const hasGraph = useWeft((state) => state.graph !== null);
  const [materialOpen, setMaterialOpen] = useState(false);
  const openMaterial = useCallback(() => setMaterialOpen(true), []);
  useKeyboardCommands();

  return (
    <div className="app">
      <header className="topbar">
        <div className="brand">
          <span className="brand-mark" aria-hidden /> Weft
        </div>
        <span className="topbar-separator" />
        <CanvasSwitcher />
        <nav className="tabs" role="tablist">
          {VIEWS.map((entry) => (
            <button
              key={entry.view}
              role="tab"
              className="tab"
              aria-selected={view === entry.view}
              data-testid={`tab-${entry.view}`}
              onClick={() => store.getState().setView(entry.view)}
            >
              {entry.label}
            </button>
          ))}
          <AtlasTabs />
          <MemoryTab />
        </nav>
        <span className="topbar-spacer" />
        <RerunUnder />
        <ReplayChip />
      </header>
      <ErrorBoundary area={workspaceView}>
        {!ready || !hasGraph ? (
          <div className="empty-state" data-testid="loading">
            {ready ? 'No canvas open.' : 'Opening your canvases…'}
          </div>
        ) : workspaceView === 'canvas' ? (
          <div className="workspace">
            <CanvasView onOpenMaterial={openMaterial} />
            <ErrorBoundary area="ask-canvas">
              <AskCanvasPanel />
            </ErrorBoundary>
            <ErrorBoundary area="panel">
              <NodePanel />
            </ErrorBoundary>
          </div>
        ) : workspaceView === 'events' ? (
          <EventLogView />
        ) : workspaceView === 'results' ? (
          <ResultsView />
        ) : (
          <SettingsView />
        )}
      </ErrorBoundary>
      <ReplayDialog />
      {materialOpen && <MaterialDialog onClose={() => setMaterialOpen(false)} />}
      <AtlasLayer />
      <MemoryLayer />
      <CanvasSync />
      <RecallSync />
      <Toasts />
      <CommandPalette />
      <ShortcutSheet />
    </div>
  );
}
