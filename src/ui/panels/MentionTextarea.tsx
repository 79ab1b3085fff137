import { useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { mentionedIds, mentionTitle, mentionToken } from '../../core/index.ts';
import { mirror, paintBackdrop, shownKey } from './mention-backdrop.ts';
import { useWeft } from '../kit/index.ts';
import { nodeTitle } from '../store/index.ts';
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
  // The textarea is uncontrolled: a keystroke updates these refs and paints the mention layer itself, and React
  // renders the field only when what it shows besides the text changes (`view`: mentions, the `@word` typed).
  const stored = useRef(value);
  const caretRef = useRef(-1);
  const [view, setView] = useState(() => ({ stored: value, shown: showMentions(value, () => null), caret: -1 }));
  const titleOf = useMentionTitles(view.stored);
  const shownRef = useRef(view.shown);
  const viewKey = useRef(shownKey(view.shown, null));
  const backdrop = useRef<HTMLSpanElement>(null);
  const lastCaret = useRef<number | null>(null);

  const update = (shown: ShownQuestion, caret: number) => {
    shownRef.current = shown;
    caretRef.current = caret;
    const key = shownKey(shown, caret >= 0 ? mentionQuery(shown.text, caret) : null);
    if (key === viewKey.current) return;
    viewKey.current = key;
    setView({ stored: stored.current, shown, caret });
  };
  /** Puts a stored text in the field (a picked mention, a question changed elsewhere), the caret at `caret`. */
  const adopt = (next: string, caret: number | null) => {
    const field = inputRef.current;
    stored.current = next;
    const shown = showMentions(next, titleOf);
    if (field && field.value !== shown.text) field.value = shown.text;
    if (field && caret !== null && document.activeElement === field) field.setSelectionRange(caret, caret);
    if (backdrop.current) paintBackdrop(backdrop.current, shown);
    update(shown, caret ?? caretRef.current);
  };
  // A mentioned node renamed elsewhere marks its mention (and paints the layer on mount).
  useLayoutEffect(() => adopt(stored.current, null), [titleOf]);
  // A question changed from outside (undo, a commit, another node opened) replaces what the field holds.
  useLayoutEffect(() => {
    if (value !== stored.current) adopt(value, null);
  }, [value, nodeId]);
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

  const { shown, caret } = view;
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
    const result = insertMention(stored.current, shownRef.current, query.start, caretRef.current, token, titleOf);
    lastCaret.current = result.caret;
    adopt(result.stored, result.caret);
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
        <span ref={backdrop} className="mention-backdrop" aria-hidden="true" data-testid="mention-backdrop" />
        <textarea
          ref={inputRef}
          className="textarea mention-textarea"
          data-testid={testId}
          defaultValue={shown.text}
          placeholder={placeholder}
          aria-autocomplete="list"
          aria-controls={listOpen ? listId : undefined}
          aria-activedescendant={listOpen ? mentionOptionId(listId, active) : undefined}
          onChange={(event) => {
            const field = event.target;
            const result = editShown(stored.current, shownRef.current, field.value, field.selectionEnd, titleOf);
            if (dismissed !== null && !mentionQuery(field.value, field.selectionEnd)) setDismissed(null);
            stored.current = result.stored;
            const next = showMentions(result.stored, titleOf);
            // An edit that broke a mention removes it whole: the field then shows less than was typed.
            if (next.text !== field.value) field.value = next.text;
            if (field.selectionEnd !== result.caret) field.setSelectionRange(result.caret, result.caret);
            lastCaret.current = result.caret;
            if (backdrop.current) paintBackdrop(backdrop.current, next);
            update(next, result.caret);
            onChange(result.stored);
          }}
          onSelect={(event) => {
            const field = event.currentTarget;
            const snapped = snapSelection(
              shownRef.current,
              field.selectionStart,
              field.selectionEnd,
              lastCaret.current,
            );
            if (snapped.start !== field.selectionStart || snapped.end !== field.selectionEnd)
              field.setSelectionRange(snapped.start, snapped.end, field.selectionDirection);
            lastCaret.current = snapped.start === snapped.end ? snapped.end : null;
            update(shownRef.current, snapped.start === snapped.end ? snapped.end : -1);
          }}
          onScroll={(event) => {
            if (backdrop.current) backdrop.current.scrollTop = event.currentTarget.scrollTop;
          }}
          onBlur={() => {
            update(shownRef.current, -1);
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
