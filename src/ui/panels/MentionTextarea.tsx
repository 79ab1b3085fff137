import {
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { mentionedIds, mentionTitle, mentionToken } from '../../core/index.ts';
import { useWeft } from '../app/store-context.tsx';
import { nodeTitle } from '../canvas/node-labels.ts';
import { MentionPicker, mentionOptionId, mentionQuery, useMentionCandidates } from './MentionPicker.tsx';
import { RenamedMentions } from './RenamedMentions.tsx';
import {
  editShown,
  insertMention,
  mentionAt,
  showMentions,
  snapSelection,
  type ShownQuestion,
} from './shown-mentions.ts';

/**
 * C31: the question field. The person reads and edits `@Title` (the mentioned node's title of now); the stored
 * question keeps the token `@[Title](nodeId)` that is the dashed wire. A plain textarea holds the shown text, so
 * typing, the caret, selection and IME work as anywhere else; a mirrored layer behind it, with the same font and
 * wrapping, paints each mention's background. Edits are mapped back onto the stored text by `shown-mentions.ts`.
 * While `@word` is typed the picker lists candidates; focus stays here, so the keys drive it (combobox pattern:
 * ArrowUp/ArrowDown move the active option, Enter or Tab insert it, Escape closes the list without inserting).
 */
export function MentionTextarea({
  nodeId,
  value,
  onChange,
  onPick,
  onUpdateMention,
  onBlur,
  onKeyDown,
  inputRef,
  placeholder,
  testId,
}: {
  nodeId: string;
  value: string;
  onChange: (stored: string) => void;
  /** A chosen mention: the stored text with its token in it. */
  onPick: (stored: string) => void;
  /** Rewrite this mentioned node's tokens to its title of now (after a rename). */
  onUpdateMention: (mentionedId: string) => void;
  onBlur: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => void;
  inputRef: RefObject<HTMLTextAreaElement | null>;
  placeholder: string;
  testId: string;
}) {
  const titleOf = useMentionTitles(value);
  const shown = useMemo(() => showMentions(value, titleOf), [value, titleOf]);
  const [caret, setCaret] = useState(-1);
  const backdrop = useRef<HTMLSpanElement>(null);
  // Where the caret goes once React has put the new shown text in the field (it would otherwise jump to the end).
  const pending = useRef<number | null>(null);
  const lastCaret = useRef<number | null>(null);

  useLayoutEffect(() => {
    const field = inputRef.current;
    if (field && pending.current !== null && document.activeElement === field)
      field.setSelectionRange(pending.current, pending.current);
    pending.current = null;
  });
  // The layer follows the field's size (a scrollbar appearing narrows its content box) from a ResizeObserver, which
  // runs after the frame's layout, and its scroll from `onScroll`: reading the field's geometry while React commits
  // would force a layout per key, and of the whole panel when it opens.
  useLayoutEffect(() => {
    const field = inputRef.current;
    if (!field || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => backdrop.current && mirror(field, backdrop.current));
    observer.observe(field);
    return () => observer.disconnect();
  }, [inputRef]);

  const moveCaret = (at: number) => {
    pending.current = at;
    lastCaret.current = at;
    setCaret(at);
  };
  const listId = useId();
  const typed = caret >= 0 ? mentionQuery(shown.text, caret) : null;
  // Escape closes the list for this `@word`; typing a new @ elsewhere opens it again.
  const [dismissed, setDismissed] = useState<number | null>(null);
  const query = typed && !mentionAt(shown, typed.start) && dismissed !== typed.start ? typed : null;
  const candidates = useMentionCandidates(nodeId, query?.query ?? null);
  // The active option belongs to one query: a changed query starts again at the first.
  const [activeFor, setActiveFor] = useState({ query: '', index: 0 });
  const queryKey = query ? `${query.start}:${query.query}` : '';
  const active = activeFor.query === queryKey ? Math.min(activeFor.index, Math.max(0, candidates.length - 1)) : 0;
  const listOpen = query !== null && candidates.length > 0;
  const pick = (token: string) => {
    if (!query) return;
    // A chosen mention is committed at once: the wire it stands for appears now.
    const result = insertMention(value, shown, query.start, caret, token, titleOf);
    moveCaret(result.caret);
    onPick(result.stored);
  };
  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    const plain = !event.altKey && !event.ctrlKey && !event.metaKey && !event.nativeEvent.isComposing;
    if (query && plain) {
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        setDismissed(query.start);
        return;
      }
      if (listOpen && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActiveFor({ query: queryKey, index: (active + step + candidates.length) % candidates.length });
        return;
      }
      if (listOpen && (event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey) {
        event.preventDefault();
        const node = candidates[active]!;
        pick(mentionToken(nodeTitle(node), node.id));
        return;
      }
    }
    onKeyDown(event);
  };
  return (
    <span className="mention-field">
      <span className="mention-box">
        <span ref={backdrop} className="mention-backdrop" aria-hidden="true" data-testid="mention-backdrop">
          {backdropParts(shown)}
        </span>
        <textarea
          ref={inputRef}
          className="textarea mention-textarea"
          data-testid={testId}
          value={shown.text}
          placeholder={placeholder}
          aria-autocomplete="list"
          aria-controls={listOpen ? listId : undefined}
          aria-activedescendant={listOpen ? mentionOptionId(listId, active) : undefined}
          onChange={(event) => {
            const field = event.target;
            const result = editShown(value, shown, field.value, field.selectionEnd, titleOf);
            if (dismissed !== null && !mentionQuery(field.value, field.selectionEnd)) setDismissed(null);
            moveCaret(result.caret);
            onChange(result.stored);
          }}
          onSelect={(event) => {
            const field = event.currentTarget;
            const snapped = snapSelection(shown, field.selectionStart, field.selectionEnd, lastCaret.current);
            if (snapped.start !== field.selectionStart || snapped.end !== field.selectionEnd)
              field.setSelectionRange(snapped.start, snapped.end, field.selectionDirection);
            lastCaret.current = snapped.start === snapped.end ? snapped.end : null;
            setCaret(snapped.start === snapped.end ? snapped.end : -1);
          }}
          onScroll={(event) => {
            if (backdrop.current) backdrop.current.scrollTop = event.currentTarget.scrollTop;
          }}
          onBlur={() => {
            setCaret(-1);
            onBlur();
          }}
          onKeyDown={keyDown}
        />
      </span>
      {query && (
        <MentionPicker
          listId={listId}
          query={query.query}
          candidates={candidates}
          active={active}
          onActive={(index) => setActiveFor({ query: queryKey, index })}
          onPick={pick}
        />
      )}
      <RenamedMentions shown={shown} onUpdate={onUpdateMention} />
    </span>
  );
}

/** The current titles of the nodes a question mentions, read narrowly so the field redraws only when one changes. */
function useMentionTitles(stored: string): (nodeId: string) => string | null {
  const ids = useMemo(() => (stored.includes('@[') ? mentionedIds(stored) : []), [stored]);
  // One string (titles cannot hold a newline), so an unrelated graph change does not redraw the field.
  const titles = useWeft((state) =>
    ids
      .map((id) => {
        const node = state.graph?.nodes.get(id);
        return node ? mentionTitle(nodeTitle(node)) : '';
      })
      .join('\n'),
  );
  return useMemo(() => {
    const byId = new Map(titles.split('\n').map((title, index) => [ids[index]!, title || null]));
    return (nodeId: string) => byId.get(nodeId) ?? null;
  }, [ids, titles]);
}

function backdropParts(shown: ShownQuestion) {
  const parts: ReactNode[] = [];
  let read = 0;
  for (const mention of shown.mentions) {
    parts.push(shown.text.slice(read, mention.start));
    parts.push(
      <mark
        key={mention.start}
        className={mention.renamedTo === null ? 'mention-chip' : 'mention-chip renamed'}
        data-node-id={mention.nodeId}
        data-testid="mention-chip"
      >
        {shown.text.slice(mention.start, mention.end)}
      </mark>,
    );
    read = mention.end;
  }
  // A trailing newline keeps a last empty line as tall as the textarea's.
  parts.push(shown.text.slice(read) + '\n');
  return parts;
}

/** The layer lines up with the textarea's text box: same padding plus room for its scrollbar, same scroll. */
function mirror(field: HTMLTextAreaElement, layer: HTMLSpanElement): void {
  const style = getComputedStyle(field);
  const scrollbar =
    field.offsetWidth - field.clientWidth - parseFloat(style.borderLeftWidth) - parseFloat(style.borderRightWidth);
  layer.style.paddingRight = `${parseFloat(style.paddingRight) + Math.max(0, scrollbar)}px`;
  layer.scrollTop = field.scrollTop;
}
