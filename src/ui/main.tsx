import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApiClient, streamGenerate, streamGenerateSet } from './api/index.ts';
import { App } from './app/index.ts';
import { ErrorBoundary, StoreContext, renderCounts } from './kit/index.ts';
import { commandRegistry, runCommand } from './commands/index.ts';
import { persistenceCounters, WeftDatabase } from './db/index.ts';
import { browserPageLocks, memoryClient, recallClient, createIdGenerator, createWeftStore } from './store/index.ts';
import './styles.css';
import './everyday.css';

const now = () => Date.now();
const store = createWeftStore({
  api: createApiClient(),
  database: new WeftDatabase(),
  generate: (body, signal) => streamGenerate(body, signal),
  generateSet: (body, signal) => streamGenerateSet(body, signal),
  memory: memoryClient,
  recall: recallClient,
  plaques: true,
  now,
  newId: createIdGenerator(now),
  pageLocks: browserPageLocks(),
});

// Nothing lost on tab close or page hide: flush IndexedDB rows and the durable record at once.
const flush = () => void store.getState().flush(true);
window.addEventListener('pagehide', flush);
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') flush();
});
window.addEventListener('unhandledrejection', (event) => {
  const reason = event.reason as { code?: string; message?: string } | undefined;
  store.getState().toast('error', reason?.code ?? 'unexpected', reason?.message ?? String(event.reason));
});

// The surface the desktop menu and the end-to-end tests drive.
declare global {
  interface Window {
    weft: unknown;
  }
}
window.weft = {
  store,
  commands: {
    run: (id: string) => runCommand(store, id),
    list: () => commandRegistry.list().map(({ id, label, shortcut }) => ({ id, label, shortcut })),
  },
  persistence: persistenceCounters,
  renders: renderCounts,
};

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ErrorBoundary area="app">
      <StoreContext.Provider value={store}>
        <App />
      </StoreContext.Provider>
    </ErrorBoundary>
  </StrictMode>,
);

// The first canvas is read at once; the settings and model list beside it (what needs them waits for them).
void store.getState().loadSettings();
void store.getState().loadModels();
void store.getState().initialise();
