import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { QuestionNode, SetAnswerUsage, Version } from '../../../protocol/index.ts';
import { plural, setAnswers, shortHash } from '../../core/index.ts';
import { useEscape, useWeft, useWeftStore } from '../kit/index.ts';
import { formatPrice } from './ReplayList.tsx';
import { SetCheckRows } from './SetCheckRows.tsx';
import { columnWindow, SET_COLUMN_STRIDE } from './set-column-window.ts';
import { sideBySide, type DiffPiece, type SideBySide } from './version-diff.ts';

/**
 * Issue 31, part 2: the Compare tab of a model set — its answers in columns (only those in view are laid out and
 * diffed), a word-level diff against a chosen base answer, each answer's latency, tokens and price, the checks' rows,
 * and the one context hash they share named once. ArrowLeft/ArrowRight move between answers, Enter selects the
 * focused one as the version that flows downstream.
 */
export function SetCompare({ node }: { node: QuestionNode }) {
  const [open, setOpen] = useState(false);
  const set = useMemo(() => setAnswers(node), [node]);
  if (!set) return null;
  return (
    <>
      <button className="button small" data-testid="compare-set" onClick={() => setOpen(true)}>
        Compare ({set.answers.length})
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

const NUMBER = new Intl.NumberFormat('en-US');

/** "1.2 s · 3,866 in / 412 out · $0.0021" — what is unknown is said so, never shown as zero. */
export function usageLine(usage: SetAnswerUsage | undefined): string {
  if (!usage) return 'No latency or tokens recorded';
  const tokens = (count: number | null) => (count === null ? '?' : NUMBER.format(count));
  const seconds = usage.latencyMs < 10_000 ? (usage.latencyMs / 1000).toFixed(1) : Math.round(usage.latencyMs / 1000);
  const price = usage.costUsd === null ? 'price unknown' : formatPrice(usage.costUsd, true);
  return `${seconds} s · ${tokens(usage.inputTokens)} in / ${tokens(usage.outputTokens)} out · ${price}`;
}

function SetCompareDialog({ node, onClose }: { node: QuestionNode; onClose: () => void }) {
  const store = useWeftStore();
  const models = useWeft((state) => state.models);
  const set = useMemo(() => setAnswers(node), [node]);
  const answers = useMemo(() => set?.answers ?? [], [set]);
  const [baseId, setBaseId] = useState(() =>
    answers.some((answer) => answer.id === node.currentVersionId) ? node.currentVersionId! : answers[0]?.id,
  );
  const [focus, setFocus] = useState(() =>
    Math.max(
      0,
      answers.findIndex((answer) => answer.id === node.currentVersionId),
    ),
  );
  const [view, setView] = useState({ left: 0, width: 3 * SET_COLUMN_STRIDE });
  const strip = useRef<HTMLDivElement | null>(null);
  const columns = useRef(new Map<number, HTMLDivElement>());
  // Diffs against the base, computed only for columns that are rendered, each once per base.
  const diffs = useRef(new Map<string, SideBySide>());
  useEscape(true, onClose);
  const base = answers.find((answer) => answer.id === baseId) ?? answers[0];
  const span = columnWindow(view.left, view.width, answers.length, focus);
  useLayoutEffect(() => {
    const element = strip.current;
    if (element) setView({ left: element.scrollLeft, width: element.clientWidth });
  }, []);
  useEffect(() => {
    // The focused column is scrolled into view (and so rendered) before it takes the focus.
    const element = strip.current;
    if (element) {
      const left = focus * SET_COLUMN_STRIDE;
      if (left < element.scrollLeft) element.scrollLeft = left;
      else if (left + SET_COLUMN_STRIDE > element.scrollLeft + element.clientWidth)
        element.scrollLeft = left + SET_COLUMN_STRIDE - element.clientWidth;
    }
    columns.current.get(focus)?.focus({ preventScroll: true });
  }, [focus]);
  if (!set || !base) return null;
  const diffOf = (answer: Version) => {
    if (answer === base) return null;
    const key = `${base.id}:${answer.id}`;
    let diff = diffs.current.get(key);
    if (!diff) {
      diff = sideBySide(base.text, answer.text);
      diffs.current.set(key, diff);
    }
    return diff;
  };
  const label = (version: Version) =>
    `${models.find((model) => model.id === version.setAnswer!.model)?.label ?? version.setAnswer!.model} · sample ${version.setAnswer!.sample}`;
  const select = (version: Version) =>
    store.getState().apply({ type: 'select-version', nodeId: node.id, versionId: version.id });
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
      event.preventDefault();
      const step = event.key === 'ArrowRight' ? 1 : -1;
      setFocus((current) => Math.min(answers.length - 1, Math.max(0, current + step)));
    } else if (event.key === 'Enter' && answers[focus] && event.target === columns.current.get(focus)) {
      event.preventDefault();
      select(answers[focus]);
    }
  };
  const rendered = answers.slice(span.from, span.to);
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
        <div
          ref={strip}
          className="diff-columns"
          role="listbox"
          aria-label="Answers"
          data-testid="set-columns"
          onScroll={(event) =>
            setView({ left: event.currentTarget.scrollLeft, width: event.currentTarget.clientWidth })
          }
        >
          <div className="set-spacer" style={{ width: span.from * SET_COLUMN_STRIDE }} />
          {rendered.map((answer, offset) => {
            const index = span.from + offset;
            const diff = diffOf(answer);
            const selected = answer.id === node.currentVersionId;
            return (
              <div
                key={answer.id}
                ref={(element) => {
                  if (element) columns.current.set(index, element);
                  else columns.current.delete(index);
                }}
                className="diff-column"
                role="option"
                aria-selected={selected}
                tabIndex={index === focus ? 0 : -1}
                data-testid="set-answer"
                data-index={index}
                data-selected={selected ? 'true' : 'false'}
                onFocus={(event) => {
                  if (event.target === event.currentTarget) setFocus(index);
                }}
              >
                <div className="diff-title">
                  {label(answer)}
                  {selected ? ' · selected' : ''}
                </div>
                <div className="hint" data-testid="set-answer-usage">
                  {usageLine(answer.setAnswer!.usage)}
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
          <div className="set-spacer" style={{ width: (answers.length - span.to) * SET_COLUMN_STRIDE }} />
        </div>
        <SetCheckRows answers={answers} />
        <div className="actions">
          <button className="button" data-testid="set-compare-close" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
