import { useEffect, useRef, useState } from 'react';
import { useWeft } from '../kit/index.ts';
import { canvasBridge } from '../commands/index.ts';

export function CanvasSearch() {
  const open = useWeft((state) => state.searchOpen);
  const query = useWeft((state) => state.searchQuery);
  const hits = useWeft((state) => state.searchHits);
  const setSearch = useWeft((state) => state.setSearch);
  const focusNode = useWeft((state) => state.focusNode);
  const input = useRef<HTMLInputElement>(null);
  const [cursor, setCursor] = useState(0);
  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);
  if (!open) return null;
  const ids = [...hits];
  const go = () => {
    if (ids.length === 0) return;
    const id = ids[cursor % ids.length]!;
    canvasBridge.centerOn(id);
    focusNode(id);
    setCursor(cursor + 1);
  };
  return (
    <div className="canvas-search" data-testid="canvas-search">
      <input
        ref={input}
        className="input"
        placeholder="Search questions, answers, notes, materials"
        value={query}
        onChange={(event) => {
          setSearch(true, event.target.value);
          setCursor(0);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') go();
          if (event.key === 'Escape') setSearch(false);
        }}
      />
      <span className="hint" data-testid="search-count">
        {query.trim() ? `${ids.length} found` : ''}
      </span>
      <button className="button small ghost" onClick={() => setSearch(false)} aria-label="Close search">
        ✕
      </button>
    </div>
  );
}
