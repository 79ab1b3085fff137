import { useWeftStore } from '../app/store-context.tsx';
import { runCommand } from '../commands/run-command.ts';
import { SelectionActions } from './SelectionActions.tsx';

export function CanvasToolbar() {
  const store = useWeftStore();
  const run = (id: string) => void runCommand(store, id);
  return (
    <div className="canvas-toolbar" role="toolbar" aria-label="Canvas">
      <button
        className="button"
        data-testid="add-question"
        onClick={() => run('new-question')}
        title="New question (Q)"
      >
        + Question
      </button>
      <button className="button" data-testid="add-note" onClick={() => run('new-note')} title="New note (N)">
        + Note
      </button>
      <button
        className="button"
        data-testid="add-material"
        onClick={() => run('import-material')}
        title="Import material (M)"
      >
        + Material
      </button>
      <button className="button" data-testid="add-frame" onClick={() => run('new-frame')}>
        + Frame
      </button>
      <button className="button" onClick={() => run('search')} title="Search (Ctrl/⌘+F)">
        Search
      </button>
      <SelectionActions />
    </div>
  );
}
