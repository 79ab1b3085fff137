import type { HighlightMode, QuestionNode, Version } from '../../protocol/index.ts';

/**
 * C33: how a highlighted answer enters context downstream. Only highlights made on the version in context
 * apply; with none, every mode is the full text.
 * - `full`: the answer as written (highlights are display only, so they change no fingerprint);
 * - `tag`: the answer with each highlighted span wrapped `[Important]…[/Important]`;
 * - `only`: `[Highlights of this answer]` and the highlighted spans, one quoted line each, in answer order.
 */
export function answerForContext(node: QuestionNode, version: Version): string {
  const mode: HighlightMode = node.highlightMode ?? 'full';
  if (mode === 'full') return version.text;
  const spans = spansOn(node, version);
  if (spans.length === 0) return version.text;
  if (mode === 'only')
    return [
      '[Highlights of this answer]',
      ...spans.map((span) => `- "${version.text.slice(span.start, span.end)}"`),
    ].join('\n');
  let text = '';
  let at = 0;
  for (const span of spans) {
    text += `${version.text.slice(at, span.start)}[Important]${version.text.slice(span.start, span.end)}[/Important]`;
    at = span.end;
  }
  return text + version.text.slice(at);
}

/**
 * The version's highlights as ordered, non-overlapping spans that still match the version's text (a stored
 * highlight whose offsets no longer hold its text is skipped, never guessed at).
 */
export function spansOn(node: QuestionNode, version: Version): { start: number; end: number }[] {
  const spans = (node.highlights ?? [])
    .filter(
      (highlight) =>
        highlight.versionId === version.id &&
        highlight.end > highlight.start &&
        version.text.slice(highlight.start, highlight.end) === highlight.text,
    )
    .map((highlight) => ({ start: highlight.start, end: highlight.end }))
    .sort((left, right) => left.start - right.start || left.end - right.end);
  const merged: { start: number; end: number }[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}
