import { isAbsolute, join } from 'node:path';
import { WORKSPACE_CHANGES_TOOL } from '../../protocol/index.ts';
import type { AgentEvent, AgentTurnResult, FileTouch, Footprint } from './agent-events.ts';
import { ABSENT, CLEAN, snapshotWorkspace, type WorkspaceSnapshot } from './workspace-snapshot.ts';

/**
 * The files that differ between two snapshots of the working directory and that no tool call of the turn named
 * as changed — what its shell commands wrote, moved or removed — as one footprint, or null when there are none.
 */
export function workspaceChanges(
  before: WorkspaceSnapshot,
  after: WorkspaceSnapshot,
  footprints: readonly Footprint[],
  cwd: string,
): Footprint | null {
  const named = new Set<string>();
  for (const footprint of footprints)
    for (const file of footprint.files)
      if (file.op !== 'read') named.add(isAbsolute(file.path) ? file.path : join(cwd, file.path));
  const files: FileTouch[] = [];
  for (const [path, now] of after.files) {
    const earlier = before.files.get(path);
    // Git lists only changed paths: one it did not list before was as committed, or did not exist yet.
    const was = earlier?.state ?? (before.method === 'git-status' && now.committed ? CLEAN : ABSENT);
    if (was === now.state || named.has(path)) continue;
    const op = was === ABSENT ? 'created' : now.state === ABSENT ? 'deleted' : 'modified';
    files.push({ path, op, by: 'shell' });
  }
  const bounded = before.bounded || after.bounded;
  if (files.length === 0 && !bounded) return null;
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    toolCallId: WORKSPACE_CHANGES_TOOL,
    toolName: WORKSPACE_CHANGES_TOOL,
    args: { compared: after.method === 'git-status' ? 'git status' : 'file sizes and times', bounded },
    files,
    exitCode: null,
    error: bounded
      ? `The folder holds more than ${Math.min(before.limit, after.limit).toLocaleString('en')} files: only the first were compared.`
      : null,
  };
}

/**
 * Runs one turn between two snapshots of its working directory and adds what its shell commands changed to the
 * footprints (told through `onEvent` as one more `tool-end`, so it reaches the node like any footprint).
 */
export async function withWorkspaceChanges(
  cwd: string,
  onEvent: (event: AgentEvent) => void,
  turn: () => Promise<AgentTurnResult>,
): Promise<AgentTurnResult> {
  // A folder that cannot be compared (unreadable, gone) costs the turn nothing but this footprint.
  const before = await snapshotWorkspace(cwd).catch(() => null);
  const result = await turn();
  const after = before && (await snapshotWorkspace(cwd, before).catch(() => null));
  const footprint = before && after ? workspaceChanges(before, after, result.footprints, cwd) : null;
  if (!footprint) return result;
  onEvent({ type: 'tool-end', footprint });
  return { ...result, footprints: [...result.footprints, footprint] };
}
