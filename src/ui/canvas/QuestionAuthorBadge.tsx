import { useState } from 'react';
import { questionAuthor, type QuestionNode } from '../../../protocol/index.ts';

/** Who wrote a question the person did not type (C14), for its card and panel. */
export function questionWriter(node: QuestionNode): 'the model' | 'Weft' | null {
  const author = questionAuthor(node);
  return author === 'model' ? 'the model' : author === 'app' ? 'Weft' : null;
}

/** The card's mark on a question a model proposed or Weft wrote: memory does not take it as the person's words. */
export function QuestionAuthorBadge({ node }: { node: QuestionNode }) {
  const writer = questionWriter(node);
  if (!writer) return null;
  return (
    <span
      className="badge app-note"
      data-testid="question-by-app"
      title={`${writer === 'Weft' ? 'Weft' : 'A model'} wrote this question, so memory never takes it as your words. Edit it and it becomes yours.`}
    >
      {writer === 'Weft' ? 'Written by Weft' : 'Written by the model'}
    </span>
  );
}

/**
 * The panel's hint under a question the person did not type. Their first edit makes the question theirs and is
 * committed on blur, often by the pointer-down of the next click: the hint then says so in the same slot, its old
 * words kept invisibly beneath, so the Model picker and everything below never move under that click (issue 30.1).
 */
export function QuestionAuthorHint({ node }: { node: QuestionNode }) {
  const writer = questionWriter(node);
  // Who wrote the question when the panel opened on it; a new node resets it (state derived from props).
  const [opened, setOpened] = useState({ nodeId: node.id, writer });
  if (opened.nodeId !== node.id) setOpened({ nodeId: node.id, writer });
  const shown = opened.nodeId === node.id ? opened.writer : writer;
  if (!shown) return null;
  const written = `Written by ${shown} — edit it to make it yours. Until then memory never takes facts from it.`;
  if (writer)
    return (
      <p className="hint" data-testid="question-by-app-hint">
        {written}
      </p>
    );
  return (
    <p className="hint hint-slot" data-testid="question-yours-hint">
      <span>Yours now: memory may take facts from it.</span>
      <span className="hint-slot-keeper" aria-hidden="true">
        {written}
      </span>
    </p>
  );
}
