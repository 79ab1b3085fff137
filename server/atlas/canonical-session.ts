import type { Session } from '../../protocol/index.ts';

/** Only the canonical fields travel (the adapters keep a few extras for linking). */
export function canonicalSession(session: Session): Session {
  return {
    runner: session.runner,
    sessionId: session.sessionId,
    sourcePath: session.sourcePath,
    title: session.title,
    cwd: session.cwd,
    gitBranch: session.gitBranch,
    startedAt: session.startedAt,
    endedAt: session.endedAt,
    models: session.models,
    parentSessionId: session.parentSessionId,
    parentTurnKey: session.parentTurnKey,
    isSubagent: session.isSubagent,
    turns: session.turns.map((turn) => ({
      key: turn.key,
      number: turn.number,
      openingRecordId: turn.openingRecordId,
      userText: turn.userText,
      assistantText: turn.assistantText,
      steps: turn.steps,
      urls: turn.urls,
      arxivIds: turn.arxivIds,
      dois: turn.dois,
      model: turn.model,
      startedAt: turn.startedAt,
      endedAt: turn.endedAt,
      afterCompaction: turn.afterCompaction,
      subagentSessionIds: turn.subagentSessionIds,
      cwd: turn.cwd ?? session.cwd,
      status: turn.status ?? null,
    })),
    compactions: session.compactions,
  };
}
