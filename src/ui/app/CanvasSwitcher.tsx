import { formatClock, formatDay } from '../../core/index.ts';
import { canvasLabels } from './canvas-labels.ts';
import { useCallback, useRef, useState } from 'react';
import { downloadText, safeFileName } from '../panels/index.ts';
import { storedCanvasDocument } from '../../../protocol/index.ts';
import { useWeft, useWeftStore, useEscape, useOutsidePress } from '../kit/index.ts';

type Pending = { kind: 'rename'; value: string } | { kind: 'new'; value: string } | { kind: 'delete' } | null;

export function CanvasSwitcher() {
  const store = useWeftStore();
  const canvases = useWeft((state) => state.canvases);
  const activeId = useWeft((state) => state.activeCanvasId);
  const activeName = useWeft((state) => state.graph?.canvas.name ?? '');
  const [menuOpen, setMenuOpen] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  useEscape(
    pending !== null,
    useCallback(() => setPending(null), []),
  );
  // The ⋯ menu closes like any popup menu: Escape, or a press anywhere outside the switcher.
  const closeMenu = useCallback(() => setMenuOpen(false), []);
  const switcher = useRef<HTMLDivElement>(null);
  useEscape(menuOpen, closeMenu);
  useOutsidePress(menuOpen, switcher, closeMenu);
  const fileInput = useRef<HTMLInputElement>(null);
  const state = store.getState();

  const exportCanvas = async () => {
    await state.flush();
    const document = state.exportDocument();
    if (document)
      downloadText(
        `${safeFileName(document.canvas.name)}.weft.json`,
        JSON.stringify(storedCanvasDocument(document), null, 2),
        'application/json',
      );
  };
  const importFile = async (file: File) => {
    let raw: unknown;
    try {
      raw = JSON.parse(await file.text());
    } catch {
      state.toast('error', 'invalid-canvas', `${file.name} is not JSON; nothing was imported.`);
      return;
    }
    await state.importDocument(raw);
  };
  const item = (label: string, testId: string, action: () => void) => (
    <button
      data-testid={testId}
      onClick={() => {
        setMenuOpen(false);
        action();
      }}
    >
      {label}
    </button>
  );

  const labels = canvasLabels(
    canvases.map((canvas) => (canvas.id === activeId ? { ...canvas, name: activeName } : canvas)),
    formatDay,
    formatClock,
  );

  return (
    <div className="canvas-switcher" ref={switcher}>
      <select
        className="select"
        data-testid="canvas-select"
        value={activeId ?? ''}
        onChange={(event) => void state.openCanvas(event.target.value)}
      >
        {canvases.map((canvas) => (
          <option key={canvas.id} value={canvas.id}>
            {labels.get(canvas.id) ?? canvas.name}
          </option>
        ))}
      </select>
      <button
        className="button ghost"
        data-testid="canvas-menu"
        aria-haspopup="menu"
        aria-expanded={menuOpen}
        onClick={() => setMenuOpen(!menuOpen)}
      >
        ⋯
      </button>
      {menuOpen && (
        <div className="menu" role="menu" style={{ top: 36, left: 0 }} onMouseLeave={() => setMenuOpen(false)}>
          {item('New canvas…', 'canvas-new', () => setPending({ kind: 'new', value: 'Untitled canvas' }))}
          {item('Rename…', 'canvas-rename', () => setPending({ kind: 'rename', value: activeName }))}
          {item('Duplicate', 'canvas-duplicate', () => void state.duplicateCanvas())}
          <hr />
          {item('Export .weft.json', 'canvas-export', () => void exportCanvas())}
          {item('Import .weft.json…', 'canvas-import', () => fileInput.current?.click())}
          <hr />
          {item('Delete canvas…', 'canvas-delete', () => setPending({ kind: 'delete' }))}
        </div>
      )}
      <input
        ref={fileInput}
        type="file"
        accept=".json,application/json"
        hidden
        data-testid="canvas-import-file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void importFile(file);
        }}
      />
      {pending && (
        <div className="overlay" onClick={() => setPending(null)}>
          <div
            className="dialog"
            role="dialog"
            data-testid="canvas-dialog"
            onClick={(event) => event.stopPropagation()}
          >
            {pending.kind === 'delete' ? (
              <>
                <h2>Delete “{activeName}”?</h2>
                <p>
                  The canvas, its answers and its event log are removed from this browser and from the durable record on
                  disk. Export it first if you may want it back.
                </p>
                <div className="actions">
                  <button className="button" onClick={() => setPending(null)}>
                    Cancel
                  </button>
                  <button
                    className="button danger solid"
                    data-testid="canvas-delete-confirm"
                    onClick={() => {
                      setPending(null);
                      if (activeId) void state.deleteCanvas(activeId);
                    }}
                  >
                    Delete canvas
                  </button>
                </div>
              </>
            ) : (
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  if (pending.kind === 'rename') state.renameCanvas(pending.value);
                  else void state.createCanvas(pending.value);
                  setPending(null);
                }}
              >
                <h2>{pending.kind === 'rename' ? 'Rename canvas' : 'New canvas'}</h2>
                <label className="field">
                  <span>Name</span>
                  <input
                    className="input"
                    autoFocus
                    data-testid="canvas-name"
                    value={pending.value}
                    onChange={(event) => setPending({ ...pending, value: event.target.value })}
                  />
                </label>
                <div className="actions">
                  <button type="button" className="button" onClick={() => setPending(null)}>
                    Cancel
                  </button>
                  <button type="submit" className="button primary" data-testid="canvas-name-save">
                    {pending.kind === 'rename' ? 'Rename' : 'Create'}
                  </button>
                </div>
              </form>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
