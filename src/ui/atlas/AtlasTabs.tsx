import { useEffect } from 'react';
import { atlasStore } from './atlas-state.ts';
import { useAtlas } from './use-atlas.ts';

/** Top-bar entries for the Atlas browser and the Why panel; any other tab closes them. */
export function AtlasTabs() {
  const open = useAtlas((state) => state.open);
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const tab = (event.target as HTMLElement | null)?.closest?.('[role="tab"]');
      if (tab && !tab.hasAttribute('data-atlas-tab')) atlasStore.setState({ open: null });
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, []);
  return (
    <>
      <button
        role="tab"
        className="tab"
        data-atlas-tab
        aria-selected={open === 'atlas'}
        data-testid="tab-atlas"
        onClick={() => atlasStore.setState({ open: open === 'atlas' ? null : 'atlas' })}
      >
        Atlas
      </button>
      <button
        role="tab"
        className="tab"
        data-atlas-tab
        aria-selected={open === 'why'}
        data-testid="tab-why"
        onClick={() => atlasStore.setState({ open: open === 'why' ? null : 'why' })}
      >
        Why
      </button>
    </>
  );
}
