/**
 * Finds what the person selected in a rendered answer inside the answer's own text, so a passage or a
 * highlight is stored with offsets into the version (C30, C33). Rendering drops Markdown marks and folds
 * whitespace, so an exact match is tried first, then one that lets whitespace and inline marks differ.
 * A phrase that occurs more than once is taken where the selection sits: `near` is the selection's start as a
 * fraction of the rendered text (0…1), and the occurrence at the closest fraction of the answer wins.
 */
export function locateSelection(
  answer: string,
  selected: string,
  near?: number,
): { start: number; end: number; text: string } | null {
  const wanted = selected.trim();
  if (wanted === '') return null;
  const exact: { start: number; end: number; text: string }[] = [];
  for (let at = answer.indexOf(wanted); at >= 0; at = answer.indexOf(wanted, at + 1))
    exact.push({ start: at, end: at + wanted.length, text: wanted });
  if (exact.length > 0) return closest(exact, answer.length, near);
  const words = wanted.split(/\s+/).map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(words.join('[\\s*_`>#~-]+'), 'g');
  const loose = [...answer.matchAll(pattern)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    text: match[0],
  }));
  return loose.length > 0 ? closest(loose, answer.length, near) : null;
}

function closest<T extends { start: number }>(found: T[], length: number, near: number | undefined): T {
  if (near === undefined || found.length === 1 || length === 0) return found[0]!;
  let best = found[0]!;
  for (const candidate of found)
    if (Math.abs(candidate.start / length - near) < Math.abs(best.start / length - near)) best = candidate;
  return best;
}
