import type { LineOrigin, MemoryDocumentName, MemoryProfile, ProfileLine } from '../../../protocol/index.ts';
import {
  MEMORY_DOCUMENTS,
  MEMORY_PROFILE_FORMAT,
  MEMORY_PROFILE_VERSION,
  ProfileLineSchema,
} from '../../../protocol/index.ts';
import type { FactCategory } from './first-person.ts';
import { normaliseText } from './normalise-text.ts';

/** Time and ids come from the caller, so every memory operation is deterministic. */
export interface MemoryContext {
  now: number;
  newId: () => string;
}

export function emptyProfile(): MemoryProfile {
  return {
    format: MEMORY_PROFILE_FORMAT,
    version: MEMORY_PROFILE_VERSION,
    documents: { preferences: [], identity: [] },
    refusals: [],
  };
}

/** The document a category's facts live in; project facts belong to a dossier, not the profile. */
export function documentFor(category: FactCategory): MemoryDocumentName | null {
  if (category === 'preference') return 'preferences';
  if (category === 'identity') return 'identity';
  return null;
}

/** The lines a document holds now, in order. */
export function currentLines(profile: MemoryProfile, document: MemoryDocumentName): ProfileLine[] {
  return profile.documents[document].filter((line) => line.ended === null);
}

/** A line by id in either document (current or ended), with the document it is in. */
export function findLine(
  profile: MemoryProfile,
  lineId: string,
): { line: ProfileLine; document: MemoryDocumentName; index: number } | null {
  for (const document of MEMORY_DOCUMENTS) {
    const index = profile.documents[document].findIndex((line) => line.id === lineId);
    if (index >= 0) return { line: profile.documents[document][index]!, document, index };
  }
  return null;
}

/** A current line in either document whose normalised text equals `text`'s. */
export function duplicateLine(profile: MemoryProfile, text: string): ProfileLine | null {
  const normal = normaliseText(text);
  for (const document of MEMORY_DOCUMENTS)
    for (const line of currentLines(profile, document)) if (normaliseText(line.text) === normal) return line;
  return null;
}

export function manualOrigin(now: number): LineOrigin {
  return { canvasId: null, nodeId: null, versionId: null, commitHash: null, at: now };
}

/**
 * True when `lines` may be stored in `profile`: each passes the schema (so a bad injected id, time or commit hash
 * never reaches the file) and no id is already used by a line of either document or by another new line.
 */
export function storableLines(profile: MemoryProfile, lines: readonly ProfileLine[]): boolean {
  const used = new Set(MEMORY_DOCUMENTS.flatMap((document) => profile.documents[document].map((line) => line.id)));
  for (const line of lines) {
    if (used.has(line.id) || !ProfileLineSchema.safeParse(line).success) return false;
    used.add(line.id);
  }
  return true;
}
