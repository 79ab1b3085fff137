import type { MemoryProfile, MemoryProfileReadCode } from '../../../protocol/index.ts';
import { MEMORY_DOCUMENTS, readMemoryProfile } from '../../../protocol/index.ts';
import type { Result } from '../result.ts';
import { failure, success } from '../result.ts';

/** Why a stored or imported profile cannot be used: the schema's codes plus what only the whole file shows. */
export type ProfileLoadCode = MemoryProfileReadCode | 'duplicate-id' | 'broken-history';

export interface ProfileLoadError {
  code: ProfileLoadCode;
  message: string;
}

/**
 * Reads a profile (schema via `readMemoryProfile`) and checks what a schema cannot: line and refusal ids are
 * unique, every `supersedes` and `replaced.by` names a line that exists, and a line replaced by another is
 * listed among that line's `supersedes`. A broken history would make `profileAt` and `lineHistory` lie.
 */
export function loadProfile(json: unknown): Result<MemoryProfile, ProfileLoadError> {
  const read = readMemoryProfile(json);
  if (!read.ok) return failure({ code: read.code, message: read.message });
  const profile = read.profile;
  const lines = MEMORY_DOCUMENTS.flatMap((document) => profile.documents[document]);
  const byId = new Map(lines.map((line) => [line.id, line]));
  const refusalIds = new Set(profile.refusals.map((refusal) => refusal.id));
  if (byId.size !== lines.length || refusalIds.size !== profile.refusals.length)
    return failure({ code: 'duplicate-id', message: 'Two lines (or two refusals) share an id.' });
  for (const line of lines) {
    if (line.supersedes.some((id) => !byId.has(id) || id === line.id))
      return failure({ code: 'broken-history', message: `Line ${line.id} replaces a line that is not there.` });
    if (line.ended?.reason === 'replaced' && !byId.get(line.ended.by)?.supersedes.includes(line.id))
      return failure({
        code: 'broken-history',
        message: `Line ${line.id} was replaced by a line that does not say so.`,
      });
  }
  return success(profile);
}
