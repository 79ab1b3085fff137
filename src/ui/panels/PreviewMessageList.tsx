import { Fragment, memo, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { STALE_MARK, plural } from '../../core/index.ts';
import { WITHOUT_FORCED_LAYOUT } from './virtualiser-without-forced-layout.ts';

/** One will-send message as the preview shows it; computed once per plan, not per render. */
export interface PreviewRow {
  role: string;
  /** The layer class and `data-layer` (a compiled layer, `profile`, or `late`). */
  layer: string;
  className: string;
  sourceNodeId: string | null;
  label: string;
  /** The message's token count, formatted; counted when the row is first drawn (a windowed list draws few). */
  tokens(): string;
  text: string;
  /** The part an Exclude button takes out of the request, when the message may be excluded. */
  excludablePartId: string | null;
}

/** Up to this many messages the list renders whole (the browser's find sees them all); longer lists are windowed. */
export const WINDOW_FROM = 60;

function withStaleMark(text: string) {
  const parts = text.split(STALE_MARK);
  return parts.map((part, index) => (
    <Fragment key={index}>
      {index > 0 && <mark data-testid="stale-mark">{STALE_MARK}</mark>}
      {part}
    </Fragment>
  ));
}

interface RowProps {
  row: PreviewRow;
  index: number;
  highlighted: boolean;
  found: boolean;
  onJump(nodeId: string): void;
  onExclude(partId: string): void;
}

const PreviewMessage = memo(function PreviewMessage({ row, index, highlighted, found, onJump, onExclude }: RowProps) {
  const tokens = useMemo(() => row.tokens(), [row]);
  return (
    <div
      className={`preview-message ${row.className}${highlighted ? ' highlight' : ''}${found ? ' found' : ''}`}
      data-testid="preview-message"
      data-index={index}
      data-source-node={row.sourceNodeId ?? ''}
      data-layer={row.layer}
      onClick={() => row.sourceNodeId && onJump(row.sourceNodeId)}
    >
      <div className="preview-head">
        <span className="role">{row.role}</span>
        <span className="source-label">· {row.label}</span>
        <span className="spacer" />
        <span>{tokens} tok</span>
        {row.excludablePartId && (
          <button
            className="button small ghost"
            data-testid="exclude-part"
            title="Leave this part out of this node's request"
            onClick={(event) => {
              event.stopPropagation();
              onExclude(row.excludablePartId!);
            }}
          >
            Exclude
          </button>
        )}
      </div>
      <div className="preview-text">{withStaleMark(row.text)}</div>
    </div>
  );
});

interface ListProps {
  rows: readonly PreviewRow[];
  highlightedNodeId: string | null;
  onJump(nodeId: string): void;
  onExclude(partId: string): void;
}

/** The preview's messages: whole when short; over WINDOW_FROM, only the ones in view, with a find box. */
export const PreviewMessageList = memo(function PreviewMessageList(props: ListProps) {
  if (props.rows.length < WINDOW_FROM)
    return (
      <>
        {props.rows.map((row, index) => (
          <PreviewMessage
            key={index}
            row={row}
            index={index}
            highlighted={row.sourceNodeId !== null && row.sourceNodeId === props.highlightedNodeId}
            found={false}
            onJump={props.onJump}
            onExclude={props.onExclude}
          />
        ))}
      </>
    );
  return <WindowedList {...props} />;
});

function WindowedList({ rows, highlightedNodeId, onJump, onExclude }: ListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    // A message is its head plus at most 120 px of text (the CSS clamp): estimates are close, measuring corrects.
    estimateSize: () => 110,
    overscan: 4,
    gap: 6,
    ...WITHOUT_FORCED_LAYOUT,
    initialRect: { width: 0, height: Math.round(window.innerHeight * 0.6) },
  });
  const [query, setQuery] = useState('');
  // The match in view, -1 until Enter shows one.
  const [at, setAt] = useState(-1);
  const needle = query.trim().toLowerCase();
  // Lower-cased once per plan, when a search first needs them (2,000 copies of the texts would slow the panel's open
  // by their garbage), so each key in the find box is one pass of `includes`.
  const searching = needle !== '';
  const haystacks = useMemo(
    () => (searching ? rows.map((row) => `${row.label}\n${row.text}`.toLowerCase()) : []),
    [rows, searching],
  );
  const matches = useMemo(() => {
    if (!needle) return [];
    const found: number[] = [];
    haystacks.forEach((text, index) => text.includes(needle) && found.push(index));
    return found;
  }, [haystacks, needle]);
  const current = at >= 0 && at < matches.length ? matches[at]! : -1;
  const show = (position: number) => {
    if (!matches.length) return;
    const next = ((position % matches.length) + matches.length) % matches.length;
    setAt(next);
    virtualizer.scrollToIndex(matches[next]!, { align: 'start' });
  };
  return (
    <>
      <div className="preview-find">
        <input
          className="input"
          data-testid="preview-find"
          placeholder={`Find in ${plural(rows.length, 'message')}`}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setAt(-1);
          }}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            // Enter on a fresh query shows the first match; then each Enter the next (Shift: the previous).
            show(current === -1 ? 0 : at + (event.shiftKey ? -1 : 1));
          }}
        />
        <span className="preview-find-count" data-testid="preview-find-count">
          {!query.trim() ? '' : current === -1 ? `${matches.length} found` : `${at + 1} of ${matches.length}`}
        </span>
      </div>
      <div className="preview-scroll" ref={scroller} data-testid="preview-list" data-windowed="true">
        {/* The virtualiser writes this box's height and each row's transform itself (WITHOUT_FORCED_LAYOUT). */}
        <div ref={virtualizer.containerRef} style={{ position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => (
            <div
              key={item.key}
              ref={virtualizer.measureElement}
              data-index={item.index}
              style={{ position: 'absolute', top: 0, left: 0, right: 0 }}
            >
              <PreviewMessage
                row={rows[item.index]!}
                index={item.index}
                highlighted={
                  rows[item.index]!.sourceNodeId !== null && rows[item.index]!.sourceNodeId === highlightedNodeId
                }
                found={item.index === current}
                onJump={onJump}
                onExclude={onExclude}
              />
            </div>
          ))}
        </div>
      </div>
    </>
  );
}
