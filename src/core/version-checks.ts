import type { AnswerCheck, CheckOutcome, EventRecord, QuestionNode, Version } from '../../protocol/index.ts';
import type { EventDraft } from './event-log.ts';
import type { Graph } from './graph.ts';
import { checkWords, runCheck, type CheckRun } from './run-check.ts';

/** The op of a check result's event: one per check per version, its object the version. */
export const CHECK_EVENT_OP = 'check';
const DETAIL_MAX = 200;

/** A check's result event for a check that needs no model (metadata only: outcome, kind and a machine-written note). */
export function checkEvent(nodeId: string, versionId: string, run: CheckRun): EventDraft {
  return {
    op: CHECK_EVENT_OP,
    objectId: versionId,
    meta: {
      nodeId,
      checkId: run.checkId,
      kind: run.kind,
      outcome: run.outcome,
      detail: run.detail.slice(0, DETAIL_MAX),
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
  const notes = node.versions.find((version) => version.id === versionId)?.rubricNotes;
  return node.checks.map((check) => {
    const found = byCheck?.get(check.id);
    // A rubric's reason is kept with the version (C10), not on its event.
    const reason = found && check.kind === 'rubric' ? notes?.find((note) => note.checkId === check.id)?.reason : null;
    return {
      check,
      words: checkWords(check),
      outcome: found?.outcome ?? 'pending',
      detail: reason ?? found?.detail ?? '',
    };
  });
}

/** One rubric a version still needs judged: it has no result for it yet. */
export interface PendingRubric {
  nodeId: string;
  versionId: string;
  checkId: string;
  rubric: string;
  question: string;
  answer: string;
}

/**
 * Issue 31: the rubric judgements the canvas still needs — every complete version of each question in `nodeIds`
 * (all when absent) without a result for one of its question's rubric checks as the rubric now reads (a reworded
 * rubric is judged again, as an edited check of another kind is re-scored). Results survive a reload, so a version
 * judged once is never listed again, whichever path wrote it or whenever it was opened.
 */
export function pendingRubrics(graph: Graph, nodeIds?: Iterable<string>): PendingRubric[] {
  const index = resultIndex(graph.events);
  const pending: PendingRubric[] = [];
  for (const id of nodeIds ?? graph.nodes.keys()) {
    const node = graph.nodes.get(id);
    if (node?.kind !== 'question') continue;
    const rubrics = (node.checks ?? []).flatMap((check) => (check.kind === 'rubric' ? [check] : []));
    if (rubrics.length === 0) continue;
    for (const version of node.versions) {
      if (version.status !== 'complete') continue;
      const byCheck = index.get(version.id);
      const judged = new Map((version.rubricNotes ?? []).map((note) => [note.checkId, note.rubric]));
      for (const check of rubrics)
        if (!byCheck?.has(check.id) || (judged.has(check.id) && judged.get(check.id) !== check.rubric))
          pending.push({
            nodeId: node.id,
            versionId: version.id,
            checkId: check.id,
            rubric: check.rubric,
            question: version.question,
            answer: version.text,
          });
    }
  }
  return pending;
}
