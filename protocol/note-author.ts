import type { NoteAuthor, NoteNode } from './canvas-document.ts';

/** The demo canvas's note as Weft wrote it before notes recorded an author. */
export const LEGACY_DEMO_NOTE =
  'A note wired solid joins the chain as my own words: keep answers to the physics, in three sentences or fewer.';

/** A mirrored session's compaction note as the mirror wrote it before notes recorded an author. */
const LEGACY_COMPACTION_NOTE = /^\*\*Context compacted\*\* before turn \d+ of this (?:session|subagent run)\./;

/**
 * Who wrote a note: its `author`, or for a note from before authorship was recorded, `app` when its text is one
 * the app wrote (the demo note, a compaction note) and `person` otherwise. Erring towards `app` only ever keeps
 * words out of memory; it never puts the app's words in the person's mouth.
 */
export function noteAuthor(note: Pick<NoteNode, 'text' | 'author'>): NoteAuthor {
  if (note.author) return note.author;
  return note.text === LEGACY_DEMO_NOTE || LEGACY_COMPACTION_NOTE.test(note.text) ? 'app' : 'person';
}
