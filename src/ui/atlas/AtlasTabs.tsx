import { useWeft, useWeftStore } from '../kit/index.ts';

/** Top-bar entries for the Atlas browser and the Why panel: each opens its page over the workspace, or closes it. */
export function AtlasTabs() {
  const store = useWeftStore();
  const view = useWeft((state) => state.view);
  const toggle = (page: 'atlas' | 'why') =>
    view === page ? store.getState().closeView(page) : store.getState().setView(page);
  return (
    <>
      <button
        role="tab"
        className="tab"
        aria-selected={view === 'atlas'}
        data-testid="tab-atlas"
        onClick={() => toggle('atlas')}
      >
        Atlas
      </button>
      <button
        role="tab"
        className="tab"
        aria-selected={view === 'why'}
        data-testid="tab-why"
        onClick={() => toggle('why')}
      >
        Why
      </button>
    </>
  );
}
