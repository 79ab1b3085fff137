import type { MemoryProfile, MemoryReading, ProfileLine } from '../../../protocol/index.ts';
import { isoTime } from '../iso-time.ts';
import { knownAsMark, lineKnownAs, readingTakes } from './known-as.ts';
import { linesValidAt } from './line-validity.ts';
import { currentLines } from './profile.ts';

/**
 * The `[Memory]` block that rides an ordinary generation: both documents' current lines, no notes or
 * provenance. Null when both are empty (nothing to send). Deterministic, so the preview hash equals the request's.
 * #29: the node's `reading` decides which lines are read: `inferred` lines only behind its switch, and a line that
 * is not the person's own words says how it is known (`[inferred]`, `[reconstructed]`). With `reading.asOf` (a
 * node's "as of" date), the lines valid at that time instead, and the header names the date
 * (`[Memory as of 2026-03-01T00:00:00.000Z]`), so the request hash covers it.
 */
export function memoryBlock(profile: MemoryProfile, reading: Partial<MemoryReading> = {}): string | null {
  const asOf = reading.asOf ?? null;
  const includeInferred = reading.includeInferred ?? false;
  const valid = asOf === null ? null : linesValidAt(profile, asOf);
  const bullets = (lines: ProfileLine[]) =>
    lines
      .filter((line) => readingTakes(lineKnownAs(line, profile), { includeInferred }))
      .map((line) => `- ${knownAsMark(lineKnownAs(line, profile))}${line.text}`);
  const preferences = bullets(valid?.preferences ?? currentLines(profile, 'preferences'));
  const identity = bullets(valid?.identity ?? currentLines(profile, 'identity'));
  if (preferences.length === 0 && identity.length === 0) return null;
  const parts = [asOf === null ? '[Memory]' : `[Memory as of ${isoTime(asOf) ?? String(asOf)}]`];
  if (preferences.length > 0) parts.push('Preferences:', ...preferences);
  if (identity.length > 0) parts.push('Identity:', ...identity);
  return parts.join('\n');
}
