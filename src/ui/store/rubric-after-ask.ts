import { appendEvent, checkEvent, type CheckRun } from '../../core/index.ts';
import type { QuestionNode } from '../../../protocol/index.ts';
import { describeError } from '../api/index.ts';
import type { AppDependencies } from './app-dependencies.ts';
import { publishGraph } from './graph-actions.ts';
import type { StoreRuntime } from './store-runtime.ts';
import { updateStoredCanvas } from './stored-canvas.ts';
import type { GetState, SetState } from './weft-state.ts';

export interface RubricAsk {
  canvasId: string;
  node: QuestionNode;
  versionId: string;
  question: string;
  answer: string;
}

/**
 * Issue 31: after an answer, each of its question's rubric checks is judged by the decision model (the checks that
 * need no model were scored when the version was added), fire-and-forget. Each result is a `check` event with the
 * verdict, the judge's reason, the judge and the request hash, written where the canvas is now (open or stored),
 * without an undo step: it is a record of the judge, not the person's act.
 */
export async function judgeRubricsAfterAsk(
  set: SetState,
  get: GetState,
  dependencies: AppDependencies,
  runtime: StoreRuntime,
  ask: RubricAsk,
): Promise<number> {
  const rubrics = (ask.node.checks ?? []).filter((check) => check.kind === 'rubric');
  let written = 0;
  for (const check of rubrics) {
    let run: CheckRun;
    let judged: { model: string; requestHash: string } | undefined;
    try {
      const answer = await dependencies.api.rubricCheck({
        question: ask.question,
        answer: ask.answer,
        rubric: check.rubric,
      });
      run = { checkId: check.id, kind: 'rubric', outcome: answer.verdict ?? 'error', detail: answer.reason };
      if (answer.model && answer.requestHash) judged = { model: answer.model, requestHash: answer.requestHash };
    } catch (error) {
      run = { checkId: check.id, kind: 'rubric', outcome: 'error', detail: describeError(error).message };
    }
    const draft = checkEvent(ask.node.id, ask.versionId, run, judged);
    const stamp = () => ({ now: dependencies.now(), newId: dependencies.newId });
    const open = get().graph;
    if (open?.canvas.id === ask.canvasId) {
      publishGraph(
        set,
        get,
        runtime,
        { ...open, events: [...open.events, appendEvent(open.events, draft, stamp())] },
        [],
        'keep',
      );
    } else if (!runtime.deletedCanvasIds.has(ask.canvasId)) {
      await updateStoredCanvas(dependencies, ask.canvasId, (stored) => ({
        ...stored,
        events: [...stored.events, appendEvent(stored.events, draft, stamp())],
      }));
    } else continue;
    written += 1;
  }
  return written;
}
