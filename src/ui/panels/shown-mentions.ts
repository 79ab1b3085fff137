import { mentionsIn } from '../../core/index.ts';

/**
 * C31 in the question field: the stored question holds each mention as its token `@[Title](nodeId)` (the token
 * *is* the dashed wire), while the person reads and edits `@Title`. These functions map between the two, so an
 * edit made on the shown text becomes the same edit on the stored one, and a mention is only ever kept whole or
 * removed whole (never left half-typed into a broken token).
 */
export interface ShownMention {
  nodeId: string;
  /** Where `@Title` sits in the shown text. */
  start: number;
  end: number;
  /** Where its token sits in the stored text. */
  storedStart: number;
  storedEnd: number;
  /** The mentioned node's title of now when it differs from the token's (the node was renamed), else null. */
  renamedTo: string | null;
}

export interface ShownQuestion {
  text: string;
  mentions: ShownMention[];
}

/**
 * The question as shown: every token read as `@Title` with the title the token holds, which is what the compiled
 * question (and so the model) reads. A mentioned node renamed since is marked with its title of now (`renamedTo`)
 * so the person can update the mention; the field never shows a title the request will not carry.
 */
export function showMentions(stored: string, titleOf: (nodeId: string) => string | null): ShownQuestion {
  if (!stored.includes('@[')) return { text: stored, mentions: [] };
  let text = '';
  let read = 0;
  const mentions: ShownMention[] = [];
  for (const mention of mentionsIn(stored)) {
    text += stored.slice(read, mention.start);
    const label = `@${mention.title}`;
    const now = titleOf(mention.nodeId);
    mentions.push({
      nodeId: mention.nodeId,
      start: text.length,
      end: text.length + label.length,
      storedStart: mention.start,
      storedEnd: mention.end,
      renamedTo: now !== null && now !== mention.title ? now : null,
    });
    text += label;
    read = mention.end;
  }
  return { text: text + stored.slice(read), mentions };
}

/** The stored offset of a shown offset that is not inside a mention. */
export function storedOffset(shown: ShownQuestion, offset: number): number {
  let shift = 0;
  for (const mention of shown.mentions) {
    if (mention.end > offset) break;
    shift += mention.storedEnd - mention.storedStart - (mention.end - mention.start);
  }
  return offset + shift;
}

/** The shown offset of a stored offset; one inside a token lands after its mention. */
export function shownOffset(shown: ShownQuestion, offset: number): number {
  let shift = 0;
  for (const mention of shown.mentions) {
    if (mention.storedStart >= offset) break;
    if (mention.storedEnd > offset) return mention.end;
    shift += mention.storedEnd - mention.storedStart - (mention.end - mention.start);
  }
  return offset - shift;
}

/**
 * The stored question after the person changed the shown text to `next`, with the caret at `caret` afterwards
 * (the caret tells where the typing ended, so `@` typed in front of `@Title` is not read as typed into it). A
 * change that touches a mention's text removes that whole mention: Backspace at its end deletes it at once.
 * Returns the new stored text and the caret in the shown text of it.
 */
export function editShown(
  stored: string,
  shown: ShownQuestion,
  next: string,
  caret: number,
  titleOf: (nodeId: string) => string | null,
): { stored: string; caret: number } {
  const before = shown.text;
  let suffix = next.length - caret;
  // The caret does not say where the change ended (e.g. it was set elsewhere): fall back to the common tail.
  if (
    caret < 0 ||
    caret > next.length ||
    suffix > before.length ||
    before.slice(before.length - suffix) !== next.slice(caret)
  ) {
    suffix = 0;
    while (
      suffix < before.length &&
      suffix < next.length &&
      before[before.length - 1 - suffix] === next[next.length - 1 - suffix]
    )
      suffix++;
  }
  let prefix = 0;
  const prefixLimit = Math.min(before.length - suffix, next.length - suffix);
  while (prefix < prefixLimit && before[prefix] === next[prefix]) prefix++;
  const inserted = next.slice(prefix, next.length - suffix);
  let from = prefix;
  let to = before.length - suffix;
  for (const mention of shown.mentions) {
    const touched = from === to ? mention.start < from && from < mention.end : mention.start < to && mention.end > from;
    if (!touched) continue;
    from = Math.min(from, mention.start);
    to = Math.max(to, mention.end);
  }
  const storedFrom = storedOffset(shown, from);
  const result = stored.slice(0, storedFrom) + inserted + stored.slice(storedOffset(shown, to));
  return { stored: result, caret: shownOffset(showMentions(result, titleOf), storedFrom + inserted.length) };
}

/** Replaces the shown range [start, end) (the `@word` being typed) with a mention token and a space after it. */
export function insertMention(
  stored: string,
  shown: ShownQuestion,
  start: number,
  end: number,
  token: string,
  titleOf: (nodeId: string) => string | null,
): { stored: string; caret: number } {
  const storedStart = storedOffset(shown, start);
  const added = `${token} `;
  const result = stored.slice(0, storedStart) + added + stored.slice(storedOffset(shown, end));
  return { stored: result, caret: shownOffset(showMentions(result, titleOf), storedStart + added.length) };
}

/**
 * Keeps a selection out of a mention's text: a caret inside one moves to the edge it was heading for (so the
 * arrow keys step over a mention), and a range with an end inside one grows to hold the whole mention.
 */
export function snapSelection(
  shown: ShownQuestion,
  start: number,
  end: number,
  previous: number | null,
): { start: number; end: number } {
  const inside = (offset: number) => shown.mentions.find((mention) => mention.start < offset && offset < mention.end);
  if (start === end) {
    const mention = inside(start);
    if (!mention) return { start, end };
    const edge = previous !== null && previous > start ? mention.start : mention.end;
    return { start: edge, end: edge };
  }
  return { start: inside(start)?.start ?? start, end: inside(end)?.end ?? end };
}

/** The mention whose shown text starts at `offset`, if any (the `@word` being typed is not one). */
export function mentionAt(shown: ShownQuestion, offset: number): ShownMention | undefined {
  return shown.mentions.find((mention) => mention.start === offset);
}
