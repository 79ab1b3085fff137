import {
  GraphError,
  compile,
  freeBeside,
  fanOutRequest,
  parseSubQuestions,
  planCondense,
  planFanOut,
  planMerge,
  ruleSubQuestions,
  type GraphChange,
  type HelperPlan,
} from '../../core/index.ts';
import { OFFLINE_RECEIPT_MODEL_ID } from '../../../protocol/index.ts';
import type { AppDependencies } from './app-dependencies.ts';
import { modelFor } from './planned-request.ts';
import { receiveAnswer, requestImages } from './receive-answer.ts';
import type { AuthoringActions, SubQuestionProposal } from './authoring-types.ts';
import type { GetState, SetState } from './weft-state.ts';

/** Authoring helpers: each builds its changes in core and applies them as one batch (one undo, its events logged). */
export function createAuthoringActions(set: SetState, get: GetState, dependencies: AppDependencies): AuthoringActions {
  function run(plan: HelperPlan | GraphError, record: GraphChange | null): string[] {
    if (plan instanceof GraphError) {
      get().toast('error', plan.code, plan.message);
      return [];
    }
    const changes = plan.change.type === 'batch' ? plan.change.changes : [plan.change];
    if (!get().apply({ type: 'batch', changes: record ? [...changes, record] : changes })) return [];
    set({ selectedNodeIds: [plan.created[0]!], focusedNodeId: plan.created[0]! });
    return plan.created;
  }
  const helperEvent = (op: string, objectId: string, meta: Record<string, string | number>): GraphChange => ({
    type: 'record',
    event: { op, objectId, meta },
  });

  return {
    mergeSelection() {
      const { graph, selectedNodeIds } = get();
      if (!graph) return null;
      const plan = planMerge(graph, selectedNodeIds, dependencies);
      const id = plan instanceof GraphError ? '' : plan.created[0]!;
      return run(plan, helperEvent('merge', id, { sources: selectedNodeIds.length }))[0] ?? null;
    },
    condenseSelection() {
      const { graph, selectedNodeIds } = get();
      if (!graph) return null;
      const plan = planCondense(graph, selectedNodeIds, dependencies);
      const id = plan instanceof GraphError ? '' : plan.created[0]!;
      return run(plan, helperEvent('condense', id, { chain: selectedNodeIds.length }))[0] ?? null;
    },
    async proposeSubQuestions(nodeId) {
      const state = get();
      const graph = state.graph;
      const node = graph?.nodes.get(nodeId);
      if (!graph || node?.kind !== 'question' || !node.question.trim()) {
        state.toast('error', 'empty-question', 'Write the question before fanning it out.');
        return null;
      }
      const rule = (): SubQuestionProposal => ({
        questions: ruleSubQuestions(node.question),
        path: 'rule',
        model: null,
      });
      const model = modelFor(state, node.model);
      // The offline receipt model echoes its request; it cannot propose, so the rule path does.
      if (model.id === OFFLINE_RECEIPT_MODEL_ID) return rule();
      const compiled = compile(graph, nodeId, { stale: state.shown });
      if (compiled.roleConflict) {
        // C29: the parents bring different roles; as when asking, nothing is sent until the person picks one.
        state.toast(
          'error',
          'role-conflict',
          'Pick a role for this question first: its parents bring different roles.',
        );
        return null;
      }
      const built = fanOutRequest(compiled, { model: model.id, images: model.takesImages, lane: 'chat' });
      const answer = await receiveAnswer(
        dependencies,
        { request: built.request, requestHash: built.requestHash, images: requestImages(graph, compiled, model) },
        new AbortController(),
        get().toast,
        { onAccepted: () => void get().apply({ type: 'record', event: built.commit }) },
      );
      const questions = answer.outcome === 'complete' ? parseSubQuestions(answer.text) : [];
      return questions.length > 0 ? { questions, path: 'model', model: model.id } : rule();
    },
    fanOut(nodeId, questions, path, proposed) {
      const graph = get().graph;
      if (!graph) return [];
      const author = path === 'model' ? 'model' : 'app';
      const plan = planFanOut(graph, nodeId, questions, dependencies, { questions: proposed ?? questions, author });
      const count = plan instanceof GraphError ? 0 : plan.created.length;
      return run(plan, helperEvent('fan-out', nodeId, { count, path }));
    },
    branchFromPassage(sourceId, passage) {
      const graph = get().graph;
      const source = graph?.nodes.get(sourceId);
      if (!graph || !source || (source.kind !== 'question' && source.kind !== 'mirror')) return null;
      const versionId = source.kind === 'question' ? source.currentVersionId : null;
      const id = dependencies.newId();
      const change: GraphChange = {
        type: 'batch',
        changes: [
          {
            type: 'add-node',
            node: {
              kind: 'question',
              id,
              question: '',
              passage: { sourceId, versionId, ...passage },
              // Beside the source at the first free spot, so a second passage never stacks on the first.
              position: freeBeside(graph, sourceId)!,
            },
          },
          { type: 'wire', from: sourceId, to: id, kind: 'solid' },
        ],
      };
      if (!get().apply(change)) return null;
      set({ selectedNodeIds: [id], focusedNodeId: id });
      return id;
    },
  };
}
