/**
 * Finds what the person selected in a rendered answer inside the answer's own text, so a passage or a
 * highlight is stored with offsets into the version (C30, C33). Rendering drops Markdown marks and folds
 * whitespace, so an exact match is tried first, then one that lets whitespace and inline marks differ.
 */
export function locateSelection(answer: string, selected: string): { start: number; end: number; text: string } | null {
  const wanted = selected.trim();
  if (wanted === '') return null;
  const exact = answer.indexOf(wanted);
  if (exact >= 0) return { start: exact, end: exact + wanted.length, text: wanted };
  const words = wanted.split(/\s+/).map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(words.join('[\\s*_`>#~-]+'));
  const match = pattern.exec(answer);
  if (!match) return null;
  return { start: match.index, end: match.index + match[0].length, text: match[0] };
}
