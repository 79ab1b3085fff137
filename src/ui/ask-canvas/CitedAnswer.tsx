import { memo, useMemo } from 'react';
import { splitCitations } from '../../core/ask-canvas/index.ts';

interface Props {
  text: string;
  /** The numbering the answer was written against: number N is `outline[N - 1]`. */
  outline: readonly string[];
  onCite(nodeId: string, number: number): void;
}

/** An answer of the side chat with each cited node number (`#12`, `[12]`) as a link to that node (C17). */
export const CitedAnswer = memo(function CitedAnswer({ text, outline, onCite }: Props) {
  const pieces = useMemo(() => splitCitations(text, outline.length), [text, outline.length]);
  return (
    <>
      {pieces.map((piece, index) =>
        piece.kind === 'text' ? (
          <span key={index}>{piece.text}</span>
        ) : (
          <button
            key={index}
            type="button"
            className="ask-cite"
            data-testid="ask-canvas-cite"
            data-number={piece.number}
            data-node-id={outline[piece.number - 1]}
            title={`Select node #${piece.number} on the canvas`}
            onClick={() => onCite(outline[piece.number - 1]!, piece.number)}
          >
            {piece.text}
          </button>
        ),
      )}
    </>
  );
});
