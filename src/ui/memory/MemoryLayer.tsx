import { lazy, Suspense, useEffect } from 'react';
import { serverEvents } from '../api/index.ts';
import { ErrorBoundary, useWeft } from '../kit/index.ts';
import { registerMemoryCommands } from './memory-commands.ts';
import { memoryClient } from '../store/index.ts';
import './memory.css';

registerMemoryCommands();

// Loaded when the tab is first opened: the first screen is the canvas.
const MemoryPage = lazy(() => import('./MemoryPage.tsx').then((module) => ({ default: module.MemoryPage })));

/**
 * Keeps the page's profile current (first read, then every `memory-changed` from the server: the judge, another
 * tab, an undo) and shows the memory page over the workspace when its tab is open.
 */
export function MemoryLayer() {
  const open = useWeft((state) => state.view === 'memory');
  useEffect(() => {
    void memoryClient.refresh();
    return serverEvents.subscribe((event) => {
      if (event.type === 'memory-changed') void memoryClient.refresh();
    });
  }, []);
  if (!open) return null;
  return (
    <div className="memory-layer">
      <ErrorBoundary area="memory">
        <Suspense fallback={null}>
          <MemoryPage />
        </Suspense>
      </ErrorBoundary>
    </div>
  );
}
