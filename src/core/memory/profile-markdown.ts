import type { MemoryProfile, ProfileLine } from '../../../protocol/index.ts';
import type { Result } from '../result.ts';
import { failure } from '../result.ts';
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

/**
 * An imported profile takes the place of the current one, but keeps every refusal either holds: a current line of
 * the import that matches a refusal (other than one the person typed) ends as deleted, so import is no way back
 * for what the person took back.
 */
export function importProfile(current: MemoryProfile, imported: MemoryProfile, now: number): MemoryProfile {
  const ids = new Set(imported.refusals.map((refusal) => refusal.id));
  const refusals = [...imported.refusals, ...current.refusals.filter((refusal) => !ids.has(refusal.id))];
  const end = (line: ProfileLine): ProfileLine =>
    line.ended === null && line.evidence !== 'manual' && matchesRefusal(refusals, line.text)
      ? { ...line, ended: { reason: 'deleted', at: now } }
      : line;
  return {
    ...imported,
    documents: { preferences: imported.documents.preferences.map(end), identity: imported.documents.identity.map(end) },
    refusals,
  };
}
