import type { Dossier } from '../../../protocol/index.ts';
import type { Validity } from '../memory/line-validity.ts';
import { normaliseText } from '../memory/normalise-text.ts';
import { dossierSentences } from './live-sentences.ts';
import type { IsStruck } from './struck-sentences.ts';

/** The parts of a stored dossier version its sentences' validity is read from. */
export type DossierVersionOf = Pick<Dossier, 'version' | 'writtenAt' | 'sections'>;

const NEVER_STRUCK: IsStruck = () => false;

function wordings(version: DossierVersionOf): Set<string> {
  return new Set(dossierSentences(version).map((sentence) => normaliseText(sentence.text)));
}

/**
 * #29.4: when each sentence of dossier version `version` held, derived from the topic's history (`versions`, any
 * order). A dossier sentence says what the topic's turns showed when a model summarised them, so it holds from the
 * `writtenAt` of the earliest version in the unbroken run of versions up to `version` that held the same words
 * (under any id: a rebuild renumbers sentences), not from a cited turn's time — that is when something was said, not
 * when the dossier stated it. It stops holding at the `writtenAt` of the first later version that dropped or
 * reworded it (`to`, exclusive); null while no later version did. A sentence the person struck (`isStruck`) was put
 * aside, not superseded: later versions leaving it out do not end it. Keyed by sentence id; a missing `version`
 * gives an empty map.
 */
export function sentenceValidity(
  versions: readonly DossierVersionOf[],
  version: number,
  isStruck: IsStruck = NEVER_STRUCK,
): Map<string, Validity> {
  const ordered = [...versions].sort((left, right) => left.version - right.version);
  const at = ordered.findIndex((candidate) => candidate.version === version);
  const validity = new Map<string, Validity>();
  if (at < 0) return validity;
  const held = ordered.map(wordings);
  for (const sentence of dossierSentences(ordered[at]!)) {
    const words = normaliseText(sentence.text);
    let first = at;
    while (first > 0 && held[first - 1]!.has(words)) first -= 1;
    let after = at + 1;
    while (after < ordered.length && held[after]!.has(words)) after += 1;
    const ended = after < ordered.length && !isStruck(sentence.text);
    validity.set(sentence.id, {
      from: ordered[first]!.writtenAt,
      to: ended ? Math.max(ordered[first]!.writtenAt, ordered[after]!.writtenAt) : null,
    });
  }
  return validity;
}

/**
 * The version standing at `time`: the newest written by then (null before the first). What an "as of" read serves
 * (`runtime/recall/stored-dossiers.ts`).
 */
export function versionStandingAt<Version extends Pick<Dossier, 'version' | 'writtenAt'>>(
  versions: readonly Version[],
  time: number,
): Version | null {
  let standing: Version | null = null;
  for (const candidate of versions)
    if (candidate.writtenAt <= time && (standing === null || candidate.version > standing.version))
      standing = candidate;
  return standing;
}

/**
 * The words of every sentence that held at `time` by its `sentenceValidity` interval, read over every version (each
 * wording once, as its newest version holding it then wrote it). It must equal the sentences of the version standing
 * then (`versionStandingAt`), which the as-of recall serves: the panel's "holds since" and an "as of" ask agree.
 */
export function sentencesHeldAt(versions: readonly DossierVersionOf[], time: number): string[] {
  const held = new Map<string, string>();
  const ordered = [...versions].sort((left, right) => left.version - right.version);
  for (const version of ordered) {
    const validity = sentenceValidity(ordered, version.version);
    for (const sentence of dossierSentences(version)) {
      const interval = validity.get(sentence.id);
      if (interval && interval.from <= time && (interval.to === null || time < interval.to))
        held.set(normaliseText(sentence.text), sentence.text);
    }
  }
  return [...held.values()];
}
