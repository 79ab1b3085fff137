import { stat } from 'node:fs/promises';
import path from 'node:path';
import { FenceError, type Fence } from './fence.ts';
import { readSessionBytes } from './session-file-reader.ts';
import type { AtlasSession } from './session-builder.ts';
import { linkSessions } from './subagent-links.ts';

const MAX_META_BYTES = 64 * 1024;

/** Parent transcripts read for linking, keyed by real path + size + mtime (a small bounded cache). */
const parentCache = new Map<string, AtlasSession[]>();
const PARENT_CACHE_LIMIT = 16;

async function readSmallJson(file: string, fence: Fence): Promise<Record<string, unknown> | null> {
  try {
    const { handle } = await fence.open(file);
    try {
      const buffer = Buffer.alloc(MAX_META_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, MAX_META_BYTES, 0);
      const value: unknown = JSON.parse(buffer.subarray(0, bytesRead).toString('utf8'));
      return value !== null && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : null;
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (
      error instanceof FenceError ||
      error instanceof SyntaxError ||
      (error as NodeJS.ErrnoException).code !== undefined
    )
      return null;
    throw error;
  }
}

async function readParent(file: string, fence: Fence): Promise<AtlasSession[] | null> {
  try {
    const real = await fence.resolve(file);
    const info = await stat(real);
    const key = `${real}\0${info.size}\0${info.mtimeMs}`;
    const cached = parentCache.get(key);
    if (cached !== undefined) return cached;
    const result = await readSessionBytes(real, { fence });
    if (parentCache.size >= PARENT_CACHE_LIMIT) parentCache.delete(parentCache.keys().next().value as string);
    parentCache.set(key, result.sessions);
    return result.sessions;
  } catch (error) {
    if (error instanceof FenceError) return null;
    throw error;
  }
}

/**
 * For a Claude Code subagent file (`<parent>/subagents/agent-<id>.jsonl`, or the older flat
 * `agent-<id>.jsonl` beside the parent), read the `.meta.json` sidecar (spawning `toolUseId`) and the
 * parent transcript, and link the subagent session to the parent turn that delegated it.
 */
export async function linkClaudeSubagent(
  realPath: string,
  sessions: AtlasSession[],
  fence: Fence,
): Promise<AtlasSession[]> {
  const child = sessions[0];
  if (child === undefined || !child.isSubagent || child.agentId === null) return sessions;
  const meta = await readSmallJson(realPath.replace(/\.jsonl$/, '.meta.json'), fence);
  if (meta !== null && typeof meta['toolUseId'] === 'string') child.parentToolCallId = meta['toolUseId'];
  if (child.parentSessionId === null) return sessions;
  const directory = path.dirname(realPath);
  const candidates =
    path.basename(directory) === 'subagents'
      ? [path.join(path.dirname(path.dirname(directory)), `${child.parentSessionId}.jsonl`)]
      : [path.join(directory, `${child.parentSessionId}.jsonl`)];
  // Workflow runs sit one level deeper: <parent>/subagents/workflows/<run>/agent-*.jsonl.
  const workflow = /[\\/]([^\\/]+)[\\/]subagents[\\/]workflows[\\/][^\\/]+$/.exec(directory);
  if (workflow !== null)
    candidates.push(path.join(directory, '..', '..', '..', '..', `${child.parentSessionId}.jsonl`));
  for (const candidate of candidates) {
    const parentSessions = await readParent(path.normalize(candidate), fence);
    if (parentSessions === null) continue;
    const linked = linkSessions([...parentSessions, ...sessions]);
    return linked.slice(parentSessions.length);
  }
  return sessions;
}
