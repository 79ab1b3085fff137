import { useWeft, useWeftStore } from '../kit/index.ts';
import { runCommand } from '../commands/index.ts';

/** What an empty canvas says first: how to start, with the buttons that do it. */
export function EmptyCanvasHint() {
  const store = useWeftStore();
  const empty = useWeft((state) => state.graph?.nodes.size === 0);
  if (!empty) return null;
  return (
    <div className="empty-canvas-hint" data-testid="empty-canvas-hint">
      <div>
        <h3>An empty canvas</h3>
        Start with a question (<kbd>Q</kbd>) and press Ask, or bring in a PDF, a web page or pasted text as material (
        <kbd>M</kbd>) and wire it into a question. Right-click the canvas for more; <kbd>Ctrl/⌘ K</kbd> finds any
        command.
        <div className="button-row" style={{ justifyContent: 'center', marginTop: 12 }}>
          <button
            className="button primary"
            data-testid="empty-new-question"
            onClick={() => void runCommand(store, 'new-question')}
          >
            New question
          </button>
          <button className="button" onClick={() => void runCommand(store, 'import-material')}>
            Import material…
          </button>
        </div>
      </div>
    </div>
  );
}
