import type { Session, Turn, MirrorNode } from '../../../protocol/index.ts';
import { canonicalJson } from '../hashing.ts';

export type MirrorSource = MirrorNode['source'];

/** A time the canvas schema accepts (non-negative integer milliseconds), or null. */
function time(value: number | null): number | null {
  return value === null || !Number.isFinite(value) || value < 0 ? null : Math.round(value);
}

/** The frozen snapshot of one turn: what the person typed, the assistant's text and its tool steps. */
export function mirrorSourceFromTurn(session: Session, turn: Turn): MirrorSource {
  return {
    runner: session.runner,
    sessionId: session.sessionId,
    turnKey: turn.key,
    turnNumber: turn.number,
    question: turn.userText,
    answer: turn.assistantText,
    model: turn.model,
    at: time(turn.startedAt),
    steps: turn.steps.map((step) => ({
      name: step.name,
      op: step.op,
      inputSummary: step.inputSummary,
      files: [...step.files],
      resultSummary: step.resultSummary,
      isError: step.isError,
    })),
    delegatedBy: session.isSubagent ? session.parentTurnKey : null,
  };
}

export function sameSource(left: MirrorSource, right: MirrorSource): boolean {
  return canonicalJson(left) === canonicalJson(right);
}

/** A mirror node whose editable copy the person changed (or whose parts they excluded) differs from its source. */
export function isMirrorEdited(node: MirrorNode): boolean {
  return node.question !== node.source.question || node.answer !== node.source.answer || node.excludedParts.length > 0;
}

/** The files a mirrored turn's tool steps touched, in first-touch order. */
export function touchedFiles(source: MirrorSource): string[] {
  return [...new Set(source.steps.flatMap((step) => step.files))];
}
