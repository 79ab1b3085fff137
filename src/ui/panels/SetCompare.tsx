import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { QuestionNode, Version } from '../../../protocol/index.ts';
import { plural, shortHash } from '../../core/index.ts';
import { useEscape, useWeft, useWeftStore } from '../kit/index.ts';
import { setAnswers } from './set-answers.ts';
import { sideBySide, type DiffPiece } from './version-diff.ts';

/**
 * Issue 31, part 2 (first cut): "Compare set" opens a set's answers side by side, each a column, with a word-level
 * diff against a chosen base answer and the one context hash they share named once. ArrowLeft/ArrowRight move between
 * answers, Enter selects the focused one as the version that flows downstream.
 */
export function SetCompare({ node }: { node: QuestionNode }) {
  const [open, setOpen] = useState(false);
  const set = useMemo(() => setAnswers(node), [node]);
  if (!set) return null;
  return (
    <>
      <button className="button small" data-testid="compare-set" onClick={() => setOpen(true)}>
        Compare set ({set.answers.length})
      </button>
      {open && <SetCompareDialog node={node} onClose={() => setOpen(false)} />}
    </>
  );
}

function Pieces({ pieces }: { pieces: DiffPiece[] }) {
  return pieces.map((piece, index) =>
    piece.change === 'added' ? (
      <ins key={index} data-testid="diff-added">
        {piece.text}
      </ins>
    ) : (
      <span key={index}>{piece.text}</span>
    ),
  );
}

function SetCompareDialog({ node, onClose }: { node: QuestionNode; onClose: () => void }) {
  const store = useWeftStore();
  const models = useWeft((state) => state.models);
  const set = useMemo(() => setAnswers(node), [node]);
  const answers = set?.answers ?? [];
  const [baseId, setBaseId] = useState(() =>
    answers.some((answer) => answer.id === node.currentVersionId) ? node.currentVersionId! : answers[0]?.id,
  );
  const [focus, setFocus] = useState(() =>
    Math.max(
      0,
      answers.findIndex((answer) => answer.id === node.currentVersionId),
    ),
  );
  const columns = useRef<(HTMLDivElement | null)[]>([]);
  useEscape(true, onClose);
  useEffect(() => columns.current[focus]?.focus(), [focus]);
  const base = answers.find((answer) => answer.id === baseId) ?? answers[0];
  const diffs = useMemo(
    () =>
      new Map(
        answers.map((answer) => [answer.id, base && answer !== base ? sideBySide(base.text, answer.text) : null]),
      ),
    [answers, base],
  );
  if (!set || !base) return null;
  const label = (version: Version) =>
    `${models.find((model) => model.id === version.setAnswer!.model)?.label ?? version.setAnswer!.model} · sample ${version.setAnswer!.sample}`;
  const select = (version: Version) =>
    store.getState().apply({ type: 'select-version', nodeId: node.id, versionId: version.id });
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
      event.preventDefault();
      const step = event.key === 'ArrowRight' ? 1 : -1;
      setFocus((current) => Math.min(answers.length - 1, Math.max(0, current + step)));
    } else if (event.key === 'Enter' && answers[focus]) {
      event.preventDefault();
      select(answers[focus]);
    }
  };
  return (
    <div className="overlay" onClick={onClose}>
      <div
        className="dialog wide set-compare"
        role="dialog"
        aria-label="Compare the set's answers"
        data-testid="set-compare-dialog"
        onClick={(event) => event.stopPropagation()}
        onKeyDown={onKeyDown}
      >
        <h2>Compare the set’s answers</h2>
        <p className="hint" data-testid="set-compare-context" title={set.contextHash}>
          {plural(answers.length, 'answer')}, one context: {shortHash(set.contextHash)} — every model got these bytes.
          Arrows move between answers; Enter makes one the version that flows downstream.
        </p>
        <div className="diff-columns" role="listbox" aria-label="Answers">
          {answers.map((answer, index) => {
            const diff = diffs.get(answer.id);
            const selected = answer.id === node.currentVersionId;
            return (
              <div
                key={answer.id}
                ref={(element) => {
                  columns.current[index] = element;
                }}
                className="diff-column"
                role="option"
                aria-selected={selected}
                tabIndex={index === focus ? 0 : -1}
                data-testid="set-answer"
                data-selected={selected ? 'true' : 'false'}
                onFocus={() => setFocus(index)}
              >
                <div className="diff-title">
                  {label(answer)}
                  {selected ? ' · selected' : ''}
                </div>
                <div className="hint" data-testid="set-answer-delta">
                  {diff ? `${diff.addedWords} words added, ${diff.removedWords} removed against the base` : 'Base'}
                </div>
                <div className="diff-text">{diff ? <Pieces pieces={diff.right} /> : answer.text}</div>
                <div className="button-row">
                  {answer !== base && (
                    <button className="button small" data-testid="set-use-base" onClick={() => setBaseId(answer.id)}>
                      Use as base
                    </button>
                  )}
                  {!selected && (
                    <button className="button small" data-testid="set-select" onClick={() => select(answer)}>
                      Select
                    </button>
                  )}
                </div>
              </div>
            );
          })}
        </div>
        <div className="actions">
          <button className="button" data-testid="set-compare-close" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
