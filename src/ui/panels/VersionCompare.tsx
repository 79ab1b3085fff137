import { useMemo } from 'react';
import type { Version } from '../../../protocol/index.ts';
import { sideBySide, type DiffPiece } from './version-diff.ts';

function Column({ title, pieces, testId }: { title: string; pieces: DiffPiece[]; testId: string }) {
  return (
    <div className="diff-column" data-testid={testId}>
      <div className="diff-title">{title}</div>
      <div className="diff-text">
        {pieces.map((piece, index) =>
          piece.change === 'same' ? (
            <span key={index}>{piece.text}</span>
          ) : piece.change === 'added' ? (
            <ins key={index} data-testid="diff-added">
              {piece.text}
            </ins>
          ) : (
            <del key={index} data-testid="diff-removed">
              {piece.text}
            </del>
          ),
        )}
      </div>
    </div>
  );
}

/** Two versions side by side, word by word: what the newer dropped (left) and added (right). */
export function VersionCompare({
  older,
  newer,
  label,
}: {
  older: Version;
  newer: Version;
  label: (version: Version) => string;
}) {
  const diff = useMemo(() => sideBySide(older.text, newer.text), [older.text, newer.text]);
  return (
    <div className="version-compare" data-testid="version-compare">
      <div className="hint">
        {diff.removedWords} words removed, {diff.addedWords} added from {label(older)} to {label(newer)}.
      </div>
      <div className="diff-columns">
        <Column title={label(older)} pieces={diff.left} testId="diff-left" />
        <Column title={label(newer)} pieces={diff.right} testId="diff-right" />
      </div>
    </div>
  );
}
