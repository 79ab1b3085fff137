import { useEffect } from 'react';
import { useStore } from 'zustand';
import { memoryPage } from './memory-page-state.ts';

/** The Memory tab in the top bar: opens the memory page over the workspace; any other tab closes it. */
export function MemoryTab() {
  const open = useStore(memoryPage, (state) => state.open);
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const tab = (event.target as HTMLElement | null)?.closest?.('[role="tab"]');
      if (tab && !tab.hasAttribute('data-memory-tab')) memoryPage.setState({ open: false });
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, []);
  return (
    <button
      role="tab"
      className="tab"
      data-memory-tab
      aria-selected={open}
      data-testid="tab-memory"
      onClick={() => memoryPage.setState({ open: !open })}
    >
      Memory
    </button>
  );
}
