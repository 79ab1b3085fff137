import type { DispatchLane, QuestionNode, RecallSnapshot } from '../../../protocol/index.ts';
import type { EventDraft, Graph } from '../../core/index.ts';
import { describeError } from '../api/index.ts';
import { recallRequestFor } from '../../core/recall/index.ts';
import type { AppDependencies } from './app-dependencies.ts';
import { modelFor } from './planned-request.ts';
import type { GetState } from './weft-state.ts';

export interface RunRecall {
  block: string | null;
  /** What the version keeps: the items' sources and the block's hash (no text). */
  snapshot: RecallSnapshot | null;
  event: EventDraft | null;
}

/**
 * C16 at dispatch: a fresh plan for a node that switched recall on (agent runs never carry one). A full reach is
 * never run unconfirmed: the run sends the full plan the person confirmed for this request (the block the preview
 * shows), else asks now with its count, time and price; declined or failed, the run stops (`refused`) rather than
 * going out without the recall the node asked for.
 */
export async function recallForRun(
  get: GetState,
  dependencies: AppDependencies,
  graph: Graph,
  node: QuestionNode,
  lane: DispatchLane,
): Promise<RunRecall | null | 'refused'> {
  const client = dependencies.recall;
  if (!client || lane === 'agent') return null;
  const state = get();
  const request = recallRequestFor(graph, node, modelFor(state, node.model));
  if (!request) return null;
  try {
    // The server reads the scope from the saved canvas: save first, so a switch just flipped is what it reads.
    await state.flush();
    // A full reach sends the plan the person confirmed (the one the preview shows), or asks for confirmation now.
    const plan =
      request.setting.reach === 'full' ? await client.confirmedFullPlan(request) : await client.plan(request);
    if (!plan) {
      get().toast('info', 'recall-full-declined', 'The full reach was not confirmed; nothing was sent.');
      return 'refused';
    }
    if (!plan.block || !plan.blockHash) return { block: null, snapshot: null, event: null };
    return {
      block: plan.block,
      snapshot: { blockHash: plan.blockHash, terms: plan.terms, items: plan.items },
      event: {
        op: 'recall',
        objectId: node.id,
        meta: {
          items: plan.items.length,
          omitted: plan.omitted.length,
          blockHash: plan.blockHash,
          scope: plan.scope === null ? 'global' : 'project',
          reach: plan.reach.reach,
        },
      },
    };
  } catch (error) {
    const { code, message } = describeError(error);
    get().toast('error', code, `Recall failed, so nothing was sent: ${message}`);
    return 'refused';
  }
}
