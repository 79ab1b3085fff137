import { useState } from 'react';
import { useWeft, useWeftStore } from '../kit/index.ts';
import { runCommand } from '../commands/index.ts';
import { ImportDialog } from './ImportDialog.tsx';
import { SelectionActions } from './SelectionActions.tsx';

export function CanvasToolbar() {
  const store = useWeftStore();
  const run = (id: string) => void runCommand(store, id);
  const [importOpen, setImportOpen] = useState(false);
  // While another canvas opens, a new node would land on the one being left.
  const opening = useWeft((state) => state.opening);
  return (
    <div className="canvas-toolbar" role="toolbar" aria-label="Canvas">
      <button
        className="button"
        data-testid="add-question"
        disabled={opening}
        onClick={() => run('new-question')}
        title="New question (Q)"
      >
        + Question
      </button>
      <button
        className="button"
        data-testid="add-note"
        disabled={opening}
        onClick={() => run('new-note')}
        title="New note (N)"
      >
        + Note
      </button>
      <button
        className="button"
        data-testid="add-material"
        disabled={opening}
        onClick={() => run('import-material')}
        title="Import material (M)"
      >
        + Material
      </button>
      <button className="button" data-testid="add-frame" disabled={opening} onClick={() => run('new-frame')}>
        + Frame
      </button>
      <button className="button" onClick={() => run('search')} title="Search (Ctrl/⌘+F)">
        Search
      </button>
      <button
        className="button"
        data-testid="open-import"
        onClick={() => setImportOpen(true)}
        title="Import past conversations (ChatGPT, Claude.ai) or a document (Markdown, HTML, DOCX)"
      >
        Import…
      </button>
      <button
        className="button"
        data-testid="open-ask-canvas"
        onClick={() => run('ask-canvas')}
        title="Ask the canvas: a side chat about this canvas (Shift+Ctrl/⌘+K)"
      >
        Ask the canvas
      </button>
      {importOpen && <ImportDialog onClose={() => setImportOpen(false)} />}
      <SelectionActions />
    </div>
  );
}
