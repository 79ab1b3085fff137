import { useRef, useState, type ReactNode } from 'react';
import type { QuestionNode, Version } from '../../../protocol/index.ts';
import { useWeft, useWeftStore } from '../kit/index.ts';
import { canvasBridge } from '../commands/index.ts';
import { locateSelection } from './answer-selection.ts';

type Span = { start: number; end: number; text: string };

/**
 * Wraps a rendered answer: selecting text in it offers "Ask about this" (C30: a new node wired from this one,
 * carrying the passage) and "Highlight" (C33). The selection is located in the version's text, so offsets hold.
 */
export function SelectableAnswer({
  node,
  version,
  children,
}: {
  node: QuestionNode;
  version: Version | undefined;
  children: ReactNode;
}) {
  const store = useWeftStore();
  const toast = useWeft((state) => state.toast);
  const container = useRef<HTMLDivElement>(null);
  const [span, setSpan] = useState<Span | null>(null);
  const read = () => {
    const selection = window.getSelection();
    const element = container.current;
    if (!version || !selection || selection.isCollapsed || !element || !element.contains(selection.anchorNode)) {
      setSpan(null);
      return;
    }
    // Where the selection starts in the rendered text, so a repeated phrase is found at the right occurrence.
    const before = document.createRange();
    before.setStart(element, 0);
    const range = selection.getRangeAt(0);
    before.setEnd(range.startContainer, range.startOffset);
    const rendered = element.textContent?.length ?? 0;
    const near = rendered > 0 ? before.toString().length / rendered : undefined;
    const found = locateSelection(version.text, selection.toString(), near);
    setSpan(found);
    if (!found && selection.toString().trim())
      toast(
        'info',
        'selection-not-found',
        'That selection spans formatting the answer text does not hold; select within one paragraph.',
      );
  };
  const ask = () => {
    if (!span) return;
    const id = store.getState().branchFromPassage(node.id, span);
    setSpan(null);
    window.getSelection()?.removeAllRanges();
    if (id) canvasBridge.ensureVisible(id);
  };
  const highlight = () => {
    if (!span || !version) return;
    const highlights = [...(node.highlights ?? []), { versionId: version.id, ...span }];
    store.getState().apply({ type: 'edit-node', nodeId: node.id, patch: { highlights } });
    setSpan(null);
    window.getSelection()?.removeAllRanges();
  };
  return (
    <div ref={container} onMouseUp={read} onKeyUp={read} data-testid="selectable-answer">
      {children}
      {span && (
        <div className="selection-bar" data-testid="selection-bar">
          <span className="hint">“{span.text.length > 60 ? `${span.text.slice(0, 57)}…` : span.text}”</span>
          <span className="spacer" />
          <button
            className="button small primary"
            data-testid="ask-about-this"
            onMouseDown={(event) => event.preventDefault()}
            onClick={ask}
          >
            Ask about this
          </button>
          <button
            className="button small"
            data-testid="highlight-this"
            onMouseDown={(event) => event.preventDefault()}
            onClick={highlight}
          >
            Highlight
          </button>
        </div>
      )}
    </div>
  );
}
