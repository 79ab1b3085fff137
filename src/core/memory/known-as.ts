import type { KnownAs, LineEvidence, MemoryProfile, MemoryReading, ProfileLine } from '../../../protocol/index.ts';
import { findLine } from './profile.ts';

/**
 * #29: how a profile line is known, derived from its stored `evidence` (so profiles written before this stay as
 * they are): the person's own words (`stated`) and a line they typed (`manual`) are `stated`; a line the judge read
 * from their words (`inferred`) is `inferred`; a line imported from an earlier store (`folded`) is `reconstructed`:
 * rebuilt from data whose origin this profile cannot show, so it is served but marked. A neighbour the merge
 * reworded (`rewritten`: nobody stated those words) is `reconstructed` when every line it replaced is known as
 * stated or reconstructed (the person's own lines, reworded: served, marked, never silently dropped), else
 * `inferred` — and `inferred` when the profile that would show its sources is not given.
 */
const KNOWN_AS_OF_EVIDENCE: Record<LineEvidence, KnownAs> = {
  stated: 'stated',
  manual: 'stated',
  inferred: 'inferred',
  rewritten: 'inferred',
  folded: 'reconstructed',
};

export function lineKnownAs(
  line: Pick<ProfileLine, 'evidence'> & Partial<Pick<ProfileLine, 'supersedes'>>,
  profile?: MemoryProfile,
): KnownAs {
  if (line.evidence !== 'rewritten' || !profile) return KNOWN_AS_OF_EVIDENCE[line.evidence];
  return rewrittenKnownAs(line.supersedes ?? [], profile, new Set());
}

/** A rewording is as sure as the least sure line it replaced; a source that cannot be found counts as inferred. */
function rewrittenKnownAs(sources: readonly string[], profile: MemoryProfile, seen: Set<string>): KnownAs {
  if (sources.length === 0) return 'inferred';
  for (const id of sources) {
    if (seen.has(id)) return 'inferred';
    seen.add(id);
    const found = findLine(profile, id)?.line;
    if (!found) return 'inferred';
    const known =
      found.evidence === 'rewritten'
        ? rewrittenKnownAs(found.supersedes, profile, seen)
        : KNOWN_AS_OF_EVIDENCE[found.evidence];
    if (known === 'inferred') return 'inferred';
  }
  return 'reconstructed';
}

/**
 * Whether a read path with `reading` takes an item known as `knownAs`: `stated`, `observed` and `reconstructed`
 * always (the last marked), `inferred` only behind the node's switch.
 */
export function readingTakes(knownAs: KnownAs, reading: Pick<MemoryReading, 'includeInferred'>): boolean {
  return knownAs !== 'inferred' || reading.includeInferred;
}

/**
 * The mark an item carries in a request and the preview: none for `stated` and `observed` (so a request of those
 * alone is byte for byte what it was before #29), `[inferred]` and `[reconstructed]` otherwise.
 */
export function knownAsMark(knownAs: KnownAs): string {
  return knownAs === 'inferred' || knownAs === 'reconstructed' ? `[${knownAs}] ` : '';
}

/**
 * How the Memory page, the CLI and MCP say how an item is known (#29): a few words a person reads beside the item,
 * and one line on why it matters (its tooltip), instead of the code.
 */
export const KNOWN_AS_WORDS: Record<KnownAs, { words: string; why: string }> = {
  stated: {
    words: 'stated by you',
    why: 'Your own words: every request that reads memory may take it.',
  },
  observed: {
    words: 'observed in a session',
    why: 'Read from a session file as it was written: recall may take it.',
  },
  reconstructed: {
    words: 'reconstructed from partial data',
    why: 'Rebuilt from partial data (an import whose origin cannot be shown, an interrupted or resumed session): served, marked [reconstructed].',
  },
  inferred: {
    words: 'inferred by a model',
    why: 'A model’s summary or judgment, not your words: a request takes it only when its node includes inferred items, marked [inferred].',
  },
};
