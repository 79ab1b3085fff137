import { describe, expect, it } from 'vitest';
import { mentionedIds, mentionToken, renderMentions } from '../../core/index.ts';
import { editShown, insertMention, showMentions, snapSelection, storedOffset } from './shown-mentions.ts';

const titles: Record<string, string> = { n1: 'Photosynthesis', n2: 'Respiration' };
const titleOf = (id: string) => titles[id] ?? null;
const stored = `Compare ${mentionToken('Photosynthesis', 'n1')} with ${mentionToken('Respiration', 'n2')} please`;
const shown = () => showMentions(stored, titleOf);

/** What the person's edit leaves stored: the shown text changed as a textarea would, the caret where it ends. */
function type(before: string, next: string, caret: number) {
  return editShown(before, showMentions(before, titleOf), next, caret, titleOf);
}

describe('the question field shows @Title and stores the token', () => {
  it('shows each mention as @Title, never the raw token', () => {
    expect(shown().text).toBe('Compare @Photosynthesis with @Respiration please');
    expect(shown().mentions.map((mention) => [mention.nodeId, mention.start, mention.end])).toEqual([
      ['n1', 8, 23],
      ['n2', 29, 41],
    ]);
  });

  it('after a rename shows the title the token (and so the request) carries, marked with the new title', () => {
    const renamed = showMentions(stored, (id) =>
      id === 'n1' ? 'Light reactions' : id === 'n2' ? 'Respiration' : null,
    );
    expect(renamed.text).toBe('Compare @Photosynthesis with @Respiration please');
    expect(renamed.text).toBe(renderMentions(stored));
    expect(renamed.mentions.map((mention) => mention.renamedTo)).toEqual(['Light reactions', null]);
    // A node gone (or not known) is not a rename.
    expect(showMentions(stored, () => null).mentions.map((mention) => mention.renamedTo)).toEqual([null, null]);
  });

  it('typing outside a mention edits the stored text there and keeps both tokens whole', () => {
    const result = type(stored, 'Now Compare @Photosynthesis with @Respiration please', 4);
    expect(result.stored).toBe(`Now ${stored}`);
    expect(result.caret).toBe(4);
    const after = type(stored, 'Compare @Photosynthesis with @Respiration please, briefly', 57);
    expect(after.stored).toBe(`${stored}, briefly`);
  });

  it('an @ typed right before a mention is new text, not an edit of the mention', () => {
    const result = type(stored, 'Compare @@Photosynthesis with @Respiration please', 9);
    expect(result.stored).toBe(`Compare @${stored.slice(8)}`);
    expect(mentionedIds(result.stored)).toEqual(['n1', 'n2']);
    expect(result.caret).toBe(9);
  });

  it('Backspace at the end of a mention deletes the whole mention, and with it the wire it stands for', () => {
    // The textarea removed the last "s" of "@Photosynthesis"; the caret sits where it was.
    const result = type(stored, 'Compare @Photosynthesi with @Respiration please', 22);
    expect(result.stored).toBe(`Compare  with ${mentionToken('Respiration', 'n2')} please`);
    expect(mentionedIds(result.stored)).toEqual(['n2']);
    expect(result.caret).toBe(8);
  });

  it('Delete at the start of a mention, or a selection that cuts into one, removes the whole mention', () => {
    expect(type(stored, 'Compare Photosynthesis with @Respiration please', 8).stored).toBe(
      `Compare  with ${mentionToken('Respiration', 'n2')} please`,
    );
    // "synthesis with @Resp" selected and replaced by "and": both mentions it touched go.
    const result = type(stored, 'Compare @Photoandiration please', 17);
    expect(result.stored).toBe('Compare and please');
    expect(result.caret).toBe(11);
  });

  it('a whole new text (select all, type) keeps no mention and stores exactly what was typed', () => {
    expect(type(stored, 'Something else?', 15).stored).toBe('Something else?');
  });

  it('a caret that does not match the change falls back to the common head and tail', () => {
    expect(type(stored, 'Compare @Photosynthesis with @Respiration please!', 0).stored).toBe(`${stored}!`);
  });

  it('a chosen mention replaces the @word typed and leaves the caret after it and a space', () => {
    const before = 'How does @photo';
    const result = insertMention(
      before,
      showMentions(before, titleOf),
      9,
      15,
      mentionToken('Photosynthesis', 'n1'),
      titleOf,
    );
    expect(result.stored).toBe(`How does ${mentionToken('Photosynthesis', 'n1')} `);
    expect(showMentions(result.stored, titleOf).text).toBe('How does @Photosynthesis ');
    expect(result.caret).toBe(25);
    // What the model reads is core's rendering of the stored text, unchanged by the field.
    expect(renderMentions(result.stored)).toBe('How does @Photosynthesis ');
  });

  it('maps shown offsets outside mentions to stored ones', () => {
    expect(storedOffset(shown(), 8)).toBe(8);
    expect(storedOffset(shown(), 23)).toBe(8 + mentionToken('Photosynthesis', 'n1').length);
    expect(storedOffset(shown(), shown().text.length)).toBe(stored.length);
  });
});

describe('the caret never rests inside a mention', () => {
  it('steps over a mention in the direction it was moving', () => {
    // Arrow Left from just after "@Photosynthesis" lands before its @.
    expect(snapSelection(shown(), 22, 22, 23)).toEqual({ start: 8, end: 8 });
    // Arrow Right from just before it lands after it.
    expect(snapSelection(shown(), 9, 9, 8)).toEqual({ start: 23, end: 23 });
    // At an edge or outside a mention the caret stays.
    expect(snapSelection(shown(), 23, 23, 22)).toEqual({ start: 23, end: 23 });
    expect(snapSelection(shown(), 3, 3, null)).toEqual({ start: 3, end: 3 });
  });

  it('a selection with an end inside a mention grows to hold the whole mention', () => {
    expect(snapSelection(shown(), 12, 33, null)).toEqual({ start: 8, end: 41 });
    expect(snapSelection(shown(), 0, 5, null)).toEqual({ start: 0, end: 5 });
  });
});
