import type { MemoryDocumentName, MemoryProfile, MemoryReading } from '../../../protocol/index.ts';
import { DEFAULT_MEMORY_READING } from '../../../protocol/index.ts';
import { knownAsMark, lineKnownAs, readingTakes } from './known-as.ts';
import { currentLines } from './profile.ts';

/**
 * The `[Memory]` block that rides an ordinary generation: both documents' current lines, no notes or
 * provenance. Null when both are empty (nothing to send). Deterministic, so the preview hash equals the request's.
 * #29: the node's `reading` decides which lines are read: `inferred` lines only behind its switch, and a line that
 * is not the person's own words says how it is known (`[inferred]`, `[reconstructed]`).
 */
export function memoryBlock(profile: MemoryProfile, reading: MemoryReading = DEFAULT_MEMORY_READING): string | null {
  const linesOf = (document: MemoryDocumentName) =>
    currentLines(profile, document)
      .filter((line) => readingTakes(lineKnownAs(line), reading))
      .map((line) => `- ${knownAsMark(lineKnownAs(line))}${line.text}`);
  const preferences = linesOf('preferences');
  const identity = linesOf('identity');
  if (preferences.length === 0 && identity.length === 0) return null;
  const parts = ['[Memory]'];
  if (preferences.length > 0) parts.push('Preferences:', ...preferences);
  if (identity.length > 0) parts.push('Identity:', ...identity);
  return parts.join('\n');
}
