import type { MemoryDocumentName, MemoryProfile, ProfileLine } from '../../../protocol/index.ts';
import { MEMORY_DOCUMENTS } from '../../../protocol/index.ts';
import { canonicalJson } from '../hashing.ts';
import type { Result } from '../result.ts';
import { failure, success } from '../result.ts';
import { findCredential } from './credential-patterns.ts';
import { MIN_SPAN_WORDS } from './find-evidence.ts';
import { contentWords, normaliseText, words } from './normalise-text.ts';
import type { ProfileLoadError } from './load-profile.ts';
import { loadProfile } from './load-profile.ts';
import { currentLines } from './profile.ts';
import { matchesRefusal } from './refusal-match.ts';

const FENCE = '---';

/**
 * The profile as Markdown: the whole record (lines, provenance, history, refusals) as JSON front matter — JSON is
 * YAML, so Markdown tools read it as front matter — then both documents' current lines for a person to read.
 */
export function profileToMarkdown(profile: MemoryProfile): string {
  const body = (['preferences', 'identity'] as const).map((document) => {
    const lines = currentLines(profile, document).map((line) => `- ${line.text} _(${provenance(line)})_`);
    return [`## ${document === 'preferences' ? 'Preferences' : 'Identity'}`, '', ...lines].join('\n');
  });
  return [FENCE, JSON.stringify(profile, null, 2), FENCE, '', '# Weft memory', '', ...body, ''].join('\n');
}

function provenance(line: ProfileLine): string {
  const where = line.origin.canvasId ? `canvas ${line.origin.canvasId}, node ${line.origin.nodeId ?? '?'}` : 'by hand';
  const commit = line.origin.commitHash ? `, commit ${line.origin.commitHash.slice(0, 12)}` : '';
  return `${line.evidence}, ${where}${commit}`;
}

/** Reads an exported profile back: the front matter is the record; the readable body is not parsed. */
export function profileFromMarkdown(markdown: string): Result<MemoryProfile, ProfileLoadError> {
  const text = markdown.replace(/^\uFEFF/, '');
  const lines = text.split(/\r?\n/);
  const end = lines[0] === FENCE ? lines.indexOf(FENCE, 1) : -1;
  if (end < 0) return failure({ code: 'not-a-profile', message: 'This Markdown has no Weft profile front matter.' });
  let json: unknown;
  try {
    json = JSON.parse(lines.slice(1, end).join('\n'));
  } catch {
    return failure({ code: 'corrupt', message: 'The front matter is not a readable profile.' });
  }
  return loadProfile(json);
}

/** Why an imported current line was not taken into the profile (it is kept as ended history instead). */
export type ImportRefusalCode = 'refused-by-person' | 'no-own-words';

export interface ImportedProfile {
  profile: MemoryProfile;
  /** Current lines of the import that failed the constitution, ended as deleted so they never show as current. */
  refused: { lineId: string; text: string; code: ImportRefusalCode }[];
  /** Current lines the import left out: kept as history, ended `imported-over`. */
  importedOver: number;
}

/**
 * What the person wrote on a canvas, for checking an imported line's span: the questions asked at the origin node
 * and the canvas's notes. Null when the canvas is unknown here.
 */
export type PersonWordsLookup = (origin: ProfileLine['origin']) => readonly string[] | null;

/**
 * An imported profile takes the place of the current one, but every current line passes the same checks as any
 * write (C14), and a current line the import leaves out stays as history, ended `imported-over`:
 * - a credential anywhere in the import refuses the whole import (`credential`): keys never enter the store;
 * - a line matching a refusal (either profile's; a current refusal wins over an imported one with its id) ends as
 *   deleted, `manual` included: import is no way back for what the person took back, and no line is both current
 *   and refused;
 * - a `stated` or `inferred` line keeps its label only when its span is the person's own words: either the very
 *   same line is already current here (it passed the constitution when written), or its span is in what the
 *   person wrote at its origin (`personWords`) and, for `stated`, its text is its span or uses only content words
 *   the person wrote there. Otherwise it ends as deleted (`no-own-words`). The strict choice:
 *   relabelling it `manual` would claim the person typed it, which nobody can know from a file.
 */
export function importProfile(
  current: MemoryProfile,
  imported: MemoryProfile,
  now: number,
  personWords: PersonWordsLookup = () => null,
): Result<ImportedProfile, 'credential'> {
  const everyLine = MEMORY_DOCUMENTS.flatMap((document) => imported.documents[document]);
  const texts = [...everyLine.flatMap((line) => [line.text, line.span ?? '']), ...imported.refusals.map((r) => r.text)];
  if (texts.some((text) => findCredential(text) !== null)) return failure('credential');
  // The person's current refusals win: an imported refusal with the same id cannot lift or reword one.
  const ids = new Set(current.refusals.map((refusal) => refusal.id));
  const refusals = [...current.refusals, ...imported.refusals.filter((refusal) => !ids.has(refusal.id))];
  const trusted = new Set(
    MEMORY_DOCUMENTS.flatMap((document) => currentLines(current, document)).map((line) => canonicalJson(line)),
  );
  const refused: ImportedProfile['refused'] = [];
  const check = (line: ProfileLine): ImportRefusalCode | null => {
    if (matchesRefusal(refusals, line.text)) return 'refused-by-person';
    if (line.evidence === 'manual' || trusted.has(canonicalJson(line))) return null;
    const written = personWords(line.origin);
    if (!spanIsOwnWords(line, written)) return 'no-own-words';
    return line.evidence !== 'stated' || textIsStated(line, written ?? []) ? null : 'no-own-words';
  };
  const end = (line: ProfileLine): ProfileLine => {
    if (line.ended !== null) return line;
    const code = check(line);
    if (code === null) return line;
    refused.push({ lineId: line.id, text: line.text, code });
    return { ...line, ended: { reason: 'deleted', at: now } };
  };
  // A current line the import does not carry is not lost: it stays as history, ended by the import.
  const importedIds = new Set(everyLine.map((line) => line.id));
  let importedOver = 0;
  const keep = (document: MemoryDocumentName): ProfileLine[] => {
    const left = currentLines(current, document).filter((line) => !importedIds.has(line.id));
    importedOver += left.length;
    const ended = left.map((line): ProfileLine => ({ ...line, ended: { reason: 'imported-over', at: now } }));
    return [...imported.documents[document].map(end), ...ended];
  };
  return success({
    profile: {
      ...imported,
      documents: { preferences: keep('preferences'), identity: keep('identity') },
      refusals,
    },
    refused,
    importedOver,
  });
}

/**
 * A `stated` line says what its span says: the same text, or only content words the person wrote at its origin.
 * Otherwise any sentence could ride in on a genuine span.
 */
function textIsStated(line: ProfileLine, written: readonly string[]): boolean {
  if (normaliseText(line.text) === normaliseText(line.span ?? '')) return true;
  const theirs = new Set(written.flatMap((text) => [...contentWords(text)]));
  return [...contentWords(line.text)].every((word) => theirs.has(word));
}

function spanIsOwnWords(line: ProfileLine, written: readonly string[] | null): boolean {
  if (line.span === null || written === null) return false;
  const span = normaliseText(line.span);
  if (words(span).length < MIN_SPAN_WORDS) return false;
  return written.some((text) => normaliseText(text).includes(span));
}
