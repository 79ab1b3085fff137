import type { AtlasSession } from './session-builder.ts';
import { promptKey } from './tool-steps.ts';

/**
 * Link subagent runs and forks to the parent turn that delegated them, across sessions read separately.
 * A child is matched to a parent turn by, in order: the parent turn already naming the child
 * (Claude `toolUseResult.agentId` / `agent_progress`), the spawning tool-call id (`.meta.json` `toolUseId`),
 * an agent call whose prompt is the child's first prompt (older layouts),
 * or, failing those, the last parent turn that started at or before the child (for Claude Code only a
 * turn with an agent step; for Codex threads any turn, as their parent records no call id). Both sides are filled in: `parentTurnKey` on the child, `subagentSessionIds` on the turn.
 * Returns copies when anything can link, else the same sessions; the input is never modified.
 */
export function linkSessions(sessions: readonly AtlasSession[]): AtlasSession[] {
  // Most files hold one session with no parent among them: nothing to link, so nothing to copy.
  const ids = new Set(sessions.map((session) => session.sessionId));
  if (!sessions.some((session) => session.parentSessionId !== null && ids.has(session.parentSessionId)))
    return [...sessions];
  const copies = sessions.map((session) => structuredClone(session));
  const byId = new Map<string, AtlasSession>();
  for (const session of copies) if (!byId.has(session.sessionId)) byId.set(session.sessionId, session);
  for (const child of copies) {
    if (child.parentSessionId === null) continue;
    const parent = byId.get(child.parentSessionId);
    if (parent === undefined || parent === child) continue;
    let turn = parent.turns.find((candidate) => candidate.subagentSessionIds.includes(child.sessionId));
    if (turn === undefined && child.parentToolCallId !== null) {
      turn = parent.turns.find((candidate) => candidate.steps.some((step) => step.callId === child.parentToolCallId));
    }
    const firstPrompt = child.turns[0] === undefined ? '' : promptKey(child.turns[0].userText);
    if (turn === undefined && firstPrompt.length >= 8) {
      // Older layouts record neither call id nor agent id: the subagent's first prompt is the call's prompt.
      turn = parent.turns.find((candidate) =>
        candidate.steps.some((step) => step.op === 'agent' && step.inputSummary.includes(`prompt: ${firstPrompt}`)),
      );
    }
    if (turn === undefined && child.startedAt !== null) {
      // Claude: only a turn that spawned an agent qualifies; Codex parents record no spawn call reliably.
      const started = child.startedAt;
      turn = [...parent.turns]
        .reverse()
        .find(
          (candidate) =>
            candidate.startedAt !== null &&
            candidate.startedAt <= started &&
            (child.runner === 'codex' || candidate.steps.some((step) => step.op === 'agent')),
        );
    }
    if (turn === undefined) continue;
    if (child.parentTurnKey === null) child.parentTurnKey = turn.key;
    if (child.isSubagent && !turn.subagentSessionIds.includes(child.sessionId))
      turn.subagentSessionIds.push(child.sessionId);
  }
  return copies;
}
