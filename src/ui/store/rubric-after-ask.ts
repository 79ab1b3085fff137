import { applyChange, pendingRubrics, type GraphChange, type PendingRubric } from '../../core/index.ts';
import { describeError } from '../api/index.ts';
import type { AppDependencies } from './app-dependencies.ts';
import { publishGraph } from './graph-actions.ts';
import type { StoreRuntime } from './store-runtime.ts';
import { updateStoredCanvas } from './stored-canvas.ts';
import type { GetState, SetState } from './weft-state.ts';

/**
 * Issue 31: the one path that judges rubric checks. Every graph this page publishes is scanned (`pendingRubrics`:
 * the touched questions after a change, the whole canvas when one is opened) for complete versions with no rubric
 * result yet, whichever path wrote them — a single ask, Replay, a re-run, the agent lane, a set, an import, another
 * page — and each is judged once by the decision model, one at a time. It is client-side because the judge's result
 * must land in the canvas through the same journal and save as every other change (the server holds no open canvas);
 * it is exactly-once because a result is an event that survives a reload (a judged version is never listed again) and
 * a judgement in flight is claimed here (never asked twice by this page).
 */
export function judgePendingRubrics(
  set: SetState,
  get: GetState,
  dependencies: AppDependencies,
  runtime: StoreRuntime,
  nodeIds?: Iterable<string>,
): void {
  const graph = get().graph;
  if (!graph) return;
  for (const item of pendingRubrics(graph, nodeIds))
    void judgeRubric(set, get, dependencies, runtime, graph.canvas.id, item);
}

/** Claims, judges and records one rubric on one version; queued behind the page's other judgements. */
function judgeRubric(
  set: SetState,
  get: GetState,
  dependencies: AppDependencies,
  runtime: StoreRuntime,
  canvasId: string,
  item: PendingRubric,
): Promise<boolean> {
  // The wording is part of the claim: a reworded rubric is a new judgement.
  const key = `${item.versionId}:${item.checkId}:${item.rubric}`;
  if (runtime.rubricsClaimed.has(key)) return Promise.resolve(false);
  runtime.rubricsClaimed.add(key);
  // A verdict that could not be saved (its canvas's save refused, the network gone) is told, and must not stop every
  // later judgement: the queue goes on, and the version is listed again when its canvas is next opened.
  const judged = runtime.rubricsJudged
    .then(() => judgeAndRecord(set, get, dependencies, runtime, canvasId, item))
    .catch((error: unknown) => {
      get().toast('error', 'rubric-not-recorded', describeError(error).message);
      return false;
    });
  runtime.rubricsJudged = judged.then(() => undefined);
  return judged;
}

async function judgeAndRecord(
  set: SetState,
  get: GetState,
  dependencies: AppDependencies,
  runtime: StoreRuntime,
  canvasId: string,
  item: PendingRubric,
): Promise<boolean> {
  let change: GraphChange;
  const base = {
    type: 'record-rubric',
    nodeId: item.nodeId,
    versionId: item.versionId,
    checkId: item.checkId,
    rubric: item.rubric,
  } as const;
  try {
    const answer = await dependencies.api.rubricCheck({
      question: item.question,
      answer: item.answer,
      rubric: item.rubric,
    });
    change = {
      ...base,
      outcome: answer.verdict ?? 'error',
      reason: answer.reason,
      judged: answer.model && answer.requestHash ? { model: answer.model, requestHash: answer.requestHash } : null,
    };
  } catch (error) {
    change = { ...base, outcome: 'error', reason: describeError(error).message, judged: null };
  }
  const stamp = () => ({ now: dependencies.now(), newId: dependencies.newId });
  const open = get().graph;
  if (open?.canvas.id === canvasId) {
    const ids: string[] = [];
    const now = dependencies.now();
    const newId = () => {
      const id = dependencies.newId();
      ids.push(id);
      return id;
    };
    const result = applyChange(open, change, { now, newId });
    // The version (or the check) may be gone by the time its verdict arrives: then there is nothing to record.
    if (!result.ok) return false;
    // Without an undo step: it is a record of the judge, not the person's act; journaled like any change.
    publishGraph(set, get, runtime, result.value.graph, result.value.touched, 'keep', {
      kind: 'change',
      change,
      now,
      ids,
    });
    return true;
  }
  if (runtime.deletedCanvasIds.has(canvasId)) return false;
  let written = false;
  await updateStoredCanvas(dependencies, canvasId, (stored) => {
    const result = applyChange(stored, change, stamp());
    written = result.ok;
    return result.ok ? result.value.graph : null;
  });
  return written;
}
