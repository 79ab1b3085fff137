import type { AnswerCheck, CheckOutcome, EventRecord, QuestionNode, Version } from '../../protocol/index.ts';
import type { EventDraft } from './event-log.ts';
import type { Graph } from './graph.ts';
import { checkWords, runCheck, type CheckRun } from './run-check.ts';

/** The op of a check result's event: one per check per version, its object the version. */
export const CHECK_EVENT_OP = 'check';
const DETAIL_MAX = 200;

/** A check's result event (metadata only: outcome, kind and a short note; a rubric adds its judge and request hash). */
export function checkEvent(
  nodeId: string,
  versionId: string,
  run: CheckRun,
  judged?: { model: string; requestHash: string },
): EventDraft {
  return {
    op: CHECK_EVENT_OP,
    objectId: versionId,
    meta: {
      nodeId,
      checkId: run.checkId,
      kind: run.kind,
      outcome: run.outcome,
      detail: run.detail.slice(0, DETAIL_MAX),
      ...(judged ? { judgeModel: judged.model, requestHash: judged.requestHash } : {}),
    },
  };
}

/**
 * The check events new versions need: one per check that runs without a model (rubrics are left to the judge).
 * Only complete answers are scored; a failed or aborted version has no answer to check.
 */
export function checkEventsFor(node: QuestionNode, ...versions: Version[]): EventDraft[] {
  const checks = node.checks ?? [];
  return versions.flatMap((version) =>
    version.status !== 'complete'
      ? []
      : checks.flatMap((check) => {
          const run = runCheck(check, version.text);
          return run ? [checkEvent(node.id, version.id, run)] : [];
        }),
  );
}

/**
 * The check events an edit of a question's checks needs: every complete version scored by each check that is new or
 * whose definition changed (so a result always answers the check as it now reads); rubrics are left to the judge.
 */
export function checkEventsForEdit(before: QuestionNode, after: QuestionNode): EventDraft[] {
  const previous = new Map((before.checks ?? []).map((check) => [check.id, JSON.stringify(check)]));
  const changed = (after.checks ?? []).filter((check) => previous.get(check.id) !== JSON.stringify(check));
  if (changed.length === 0) return [];
  return checkEventsFor({ ...after, checks: changed }, ...after.versions);
}

/** A check as shown on one version: its words and latest result (`pending` until its event exists). */
export interface VersionCheckResult {
  check: AnswerCheck;
  words: string;
  outcome: CheckOutcome | 'pending';
  detail: string;
}

type ResultIndex = Map<string, Map<string, { outcome: CheckOutcome; detail: string }>>;
const indexes = new WeakMap<readonly EventRecord[], ResultIndex>();

/** Version id → check id → latest result, built once per event log (an applied change makes a new log). */
function resultIndex(events: readonly EventRecord[]): ResultIndex {
  const cached = indexes.get(events);
  if (cached) return cached;
  const index: ResultIndex = new Map();
  for (const event of events) {
    if (event.op !== CHECK_EVENT_OP) continue;
    const { checkId, outcome, detail } = event.meta;
    if (typeof checkId !== 'string' || (outcome !== 'pass' && outcome !== 'fail' && outcome !== 'error')) continue;
    let byCheck = index.get(event.objectId);
    if (!byCheck) index.set(event.objectId, (byCheck = new Map<string, { outcome: CheckOutcome; detail: string }>()));
    byCheck.set(checkId, { outcome, detail: typeof detail === 'string' ? detail : '' });
  }
  indexes.set(events, index);
  return index;
}

/**
 * One version's check results, in the order of the question's checks: what the card, the Compare tab's checks row,
 * the Results view and a run comparison all read. Results come from the canvas's `check` events only, so a check
 * edited or removed since shows only as the question now carries it.
 */
export function versionCheckResults(graph: Graph, nodeId: string, versionId: string): VersionCheckResult[] {
  const node = graph.nodes.get(nodeId);
  if (!node || node.kind !== 'question' || !node.checks) return [];
  const byCheck = resultIndex(graph.events).get(versionId);
  return node.checks.map((check) => {
    const found = byCheck?.get(check.id);
    return { check, words: checkWords(check), outcome: found?.outcome ?? 'pending', detail: found?.detail ?? '' };
  });
}
