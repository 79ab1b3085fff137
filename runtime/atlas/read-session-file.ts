import { linkClaudeSubagent } from './claude-subagent-parent.ts';
import { readSessionBytes, type ReadSessionOptions, type ReadSessionResult } from './session-file-reader.ts';

export { PREFIX_HASH_BYTES } from './session-file-reader.ts';
export type { ReadSessionOptions, ReadSessionResult } from './session-file-reader.ts';

/**
 * Read (or resume reading) one session file through the fence, opened read-only. A Claude Code
 * subagent file is then linked to its parent turn (sidecar `.meta.json` and parent transcript, both
 * read through the fence) unless `linkParent: false`.
 */
export async function readSessionFile(requested: string, options: ReadSessionOptions): Promise<ReadSessionResult> {
  const result = await readSessionBytes(requested, options);
  if (options.linkParent === false || result.runner !== 'claude-code') return result;
  return { ...result, sessions: await linkClaudeSubagent(result.path, result.sessions, options.fence) };
}
