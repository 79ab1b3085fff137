import { useWeft, useWeftStore } from '../kit/index.ts';
import { runCommand } from '../commands/index.ts';

/** C33: with two or more nodes selected, the toolbar offers Merge and Condense (the same commands as Shift+M, Shift+C). */
export function SelectionActions() {
  const store = useWeftStore();
  const count = useWeft((state) => state.selectedNodeIds.length);
  if (count < 2) return null;
  return (
    <>
      <span className="toolbar-divider" aria-hidden="true" />
      <button
        className="button"
        data-testid="merge-selection"
        title="A synthesis question wired from each selected node (Shift+M)"
        onClick={() => void runCommand(store, 'merge-selection')}
      >
        Merge {count}
      </button>
      <button
        className="button"
        data-testid="condense-selection"
        title="A conclusion above the selected chain (Shift+C)"
        onClick={() => void runCommand(store, 'condense-selection')}
      >
        Condense
      </button>
    </>
  );
}
