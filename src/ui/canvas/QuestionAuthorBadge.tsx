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

/** The panel's hint under a question the person did not type. */
export function QuestionAuthorHint({ node }: { node: QuestionNode }) {
  const writer = questionWriter(node);
  if (!writer) return null;
  return (
    <p className="hint" data-testid="question-by-app-hint">
      Written by {writer} — edit it to make it yours. Until then memory never takes facts from it.
    </p>
  );
}
