import { useWeft, useWeftStore } from '../kit/index.ts';

/** The Memory tab in the top bar: opens the memory page over the workspace, or closes it. */
export function MemoryTab() {
  const store = useWeftStore();
  const open = useWeft((state) => state.view === 'memory');
  return (
    <button
      role="tab"
      className="tab"
      aria-selected={open}
      data-testid="tab-memory"
      onClick={() => (open ? store.getState().closeView('memory') : store.getState().setView('memory'))}
    >
      Memory
    </button>
  );
}
