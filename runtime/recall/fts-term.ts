import { MIN_STEM, recallStem } from '../../src/core/recall/index.ts';

/**
 * A recall term as an FTS5 query: a stem of four or more letters as a prefix (`"scatter" *` finds scattering,
 * scattered, scatters), a shorter word as itself. The index keeps its unicode61 words, so find stays exact.
 */
export function ftsTerm(term: string): string {
  const stem = recallStem(term);
  const quoted = `"${stem.replaceAll('"', '""')}"`;
  return stem.length >= MIN_STEM ? `${quoted} *` : quoted;
}
