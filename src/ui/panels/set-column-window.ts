/** How wide a column of the Compare view is, gap included (the CSS's `.set-compare .diff-column` plus its gap). */
export const SET_COLUMN_STRIDE = 300;

export interface ColumnWindow {
  /** The first column rendered. */
  from: number;
  /** One past the last column rendered. */
  to: number;
}

/**
 * Issue 31, part 2: which of a set's answer columns the Compare view renders — those in the scrolled viewport, one
 * more on each side, and always the focused one's neighbourhood, so the arrows land on a rendered column. 32 answers
 * of 2,000 words each are never all laid out (nor all diffed) at once.
 */
export function columnWindow(
  scrollLeft: number,
  viewportWidth: number,
  count: number,
  focus: number,
  stride = SET_COLUMN_STRIDE,
): ColumnWindow {
  if (count === 0) return { from: 0, to: 0 };
  const first = Math.floor(Math.max(0, scrollLeft) / stride);
  const last = Math.ceil((Math.max(0, scrollLeft) + Math.max(stride, viewportWidth)) / stride);
  const from = Math.max(0, Math.min(first, focus) - 1);
  const to = Math.min(count, Math.max(last, focus + 1) + 1);
  return { from, to };
}
