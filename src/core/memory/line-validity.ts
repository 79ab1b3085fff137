import type { MemoryDocumentName, MemoryProfile, ProfileLine } from '../../../protocol/index.ts';
import { MEMORY_DOCUMENTS } from '../../../protocol/index.ts';
import { matchesRefusal } from './refusal-match.ts';

/** When a fact held (#29.4): from `from` (inclusive) to `to` (exclusive; null while nothing superseded it). */
export interface Validity {
  from: number;
  to: number | null;
}

function validFrom(line: ProfileLine): number {
  return line.validFrom ?? line.origin.at;
}

/**
 * A line's validity interval: stored when the line carries it, else derived — from the time of the turn that
 * stated it, to the replacing line's `validFrom` when a later statement replaced it. A deletion (or an import
 * that left the line out) ends the record, not the fact's truth: `to` stays null and `heldAt` never serves it.
 * `to` never precedes `from` (a replacement stated before the line it replaced closes the interval at `from`).
 */
export function lineValidity(profile: MemoryProfile, line: ProfileLine): Validity {
  const from = validFrom(line);
  if (line.validTo !== undefined) return { from, to: line.validTo === null ? null : Math.max(from, line.validTo) };
  if (line.ended?.reason !== 'replaced') return { from, to: null };
  const byId = line.ended.by;
  const successor = MEMORY_DOCUMENTS.flatMap((document) => profile.documents[document]).find(
    (other) => other.id === byId,
  );
  return { from, to: Math.max(from, successor ? validFrom(successor) : line.ended.at) };
}

/**
 * The lines of each document that were true at `time`, in document order: valid then, including lines a later
 * statement superseded since, never a line the person deleted, left out on import, or whose words they refused
 * (a line they edited away counts as refused unless the edit only refined it). What an "as of" ask serves.
 */
export function linesValidAt(profile: MemoryProfile, time: number): Record<MemoryDocumentName, ProfileLine[]> {
  const held = (line: ProfileLine) => {
    if (line.ended !== null && line.ended.reason !== 'replaced') return false;
    const { from, to } = lineValidity(profile, line);
    return from <= time && (to === null || time < to) && matchesRefusal(profile.refusals, line.text) === null;
  };
  return {
    preferences: profile.documents.preferences.filter(held),
    identity: profile.documents.identity.filter(held),
  };
}
