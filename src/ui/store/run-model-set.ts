import {
  appendEvent,
  applyChange,
  askedByHandReason,
  generateSetBody,
  memoryReadingOf,
  setAnswerUsage,
  rerunAllowed,
  upstreamSnapshot,
  type EventDraft,
  type GraphChange,
  toolCallEvent,
  type SetDispatch,
} from '../../core/index.ts';
import { questionAuthor, type QuestionNode } from '../../../protocol/index.ts';
import type { AppDependencies } from './app-dependencies.ts';
import { publishGraph } from './graph-actions.ts';
import { modelSetPlan } from './model-set-plan.ts';
import { recallForRun } from './recall-for-run.ts';
import { receiveAnswer, requestImages } from './receive-answer.ts';
import { runKey } from './run-node.ts';
import { splitSetStream } from './split-set-stream.ts';
import type { StoreRuntime } from './store-runtime.ts';
import { updateStoredCanvas } from './stored-canvas.ts';
import type { GetState, SetRunResult, SetState } from './weft-state.ts';

/**
 * Issue 31: one ask of a question's model set. The plan (`modelSetPlan`) is made once — one compiled context, one
 * context hash — and refused before anything is sent when it is over the per-ask cap; then the whole set goes in one
 * call (`/api/generate-set`: the context once, the server dispatches and paces the answers), and each answer is read
 * through the one handshake (`receiveAnswer`) from its share of the set's stream. Each accepted request writes
 * its commit event (both hashes); each answer becomes a version tagged with its model, sample and settings. The
 * first model's first answer is selected (downstream compiles from it, as from any version); Stop stops them all.
 */
export async function runModelSet(
  set: SetState,
  get: GetState,
  dependencies: AppDependencies,
  runtime: StoreRuntime,
  nodeId: string,
): Promise<SetRunResult> {
  const none: SetRunResult = { answers: 0, failed: 0, contextHash: null };
  const state = get();
  const graph = state.graph;
  const node = graph?.nodes.get(nodeId);
  if (!graph || node?.kind !== 'question' || !rerunAllowed(node).ok || askedByHandReason(node)) return none;
  const canvasId = graph.canvas.id;
  const key = runKey(canvasId, nodeId);
  if (runtime.aborts.has(key)) return none;
  await Promise.all([runtime.modelsRead, runtime.settingsRead]);
  // The recall budget follows the smallest window in the set, as the rest of the context does.
  const firstPlan = modelSetPlan(get(), nodeId, dependencies.newId());
  if (!firstPlan.ok) {
    get().toast('error', firstPlan.code, firstPlan.message);
    return none;
  }
  // #29: memory read as the node reads it (its inferred switch), as a single ask and the dialog's preview read it.
  const memoryBlock = dependencies.memory?.blockFor(canvasId, 'chat', memoryReadingOf(node)) ?? null;
  const recall = await recallForRun(
    get,
    dependencies,
    graph,
    { ...node, model: firstPlan.plan.limits.windowSetBy },
    'chat',
  );
  if (recall === 'refused') return none;
  const planned = modelSetPlan(get(), nodeId, firstPlan.plan.requests.setId, {
    memoryBlock,
    recallBlock: recall?.block ?? null,
  });
  if (!planned.ok) {
    get().toast('error', planned.code, planned.message);
    return none;
  }
  const { plan } = planned;
  if (plan.refusal) {
    get().toast('error', 'model-set-refused', `${plan.refusal} Nothing was sent.`);
    return none;
  }
  if (plan.compiled.roleConflict) {
    get().toast(
      'error',
      'role-conflict',
      `Pick a role for “${node.question.slice(0, 60)}”: its parents bring different roles.`,
    );
    return none;
  }
  const asked = get().graph!;
  const snapshot = upstreamSnapshot(asked, nodeId);
  const images = requestImages(asked, plan.compiled, { takesImages: plan.limits.images });
  const controller = new AbortController();
  runtime.aborts.set(key, controller);
  const result: SetRunResult = { answers: 0, failed: 0, contextHash: plan.requests.contextHash };
  const first = plan.requests.dispatches[0];
  // Writes a commit event and/or a version where the ask's canvas is now: open, or stored.
  const record = async (commit: EventDraft | null, change: GraphChange | null) => {
    const open = get().graph;
    if (open?.canvas.id === canvasId) {
      if (commit) {
        const event = appendEvent(open.events, commit, { now: dependencies.now(), newId: dependencies.newId });
        publishGraph(set, get, runtime, { ...open, events: [...open.events, event] }, [], 'keep');
      }
      if (change) get().apply(change);
      return;
    }
    if (runtime.deletedCanvasIds.has(canvasId)) return;
    await updateStoredCanvas(dependencies, canvasId, (stored) => {
      let next = stored;
      if (commit) {
        const event = appendEvent(next.events, commit, { now: dependencies.now(), newId: dependencies.newId });
        next = { ...next, events: [...next.events, event] };
      }
      const applied = change && applyChange(next, change, { now: dependencies.now(), newId: dependencies.newId });
      return applied?.ok ? applied.value.graph : next;
    });
  };
  const streams = splitSetStream(
    dependencies.generateSet(generateSetBody(plan.requests, images, { canvasId, nodeId }), controller.signal),
    plan.requests.dispatches.length,
    (refusal) => get().toast('error', refusal.code, refusal.message),
  );
  const ask = async (dispatch: SetDispatch, index: number) => {
    // The commit is written as the acceptance arrives; the version waits for it, so the two land in order.
    const commitWrites: Promise<void>[] = [];
    const sentAt = dependencies.now();
    const answer = await receiveAnswer(
      { generate: () => streams[index]! },
      {
        request: dispatch.request,
        requestHash: dispatch.requestHash,
        contextHash: dispatch.setAnswer.contextHash,
        images,
        target: { canvasId, nodeId },
      },
      controller,
      get().toast,
      { onAccepted: () => void commitWrites.push(record(dispatch.commit, null)) },
    );
    const latencyMs = dependencies.now() - sentAt;
    await Promise.all(commitWrites);
    // C35, C10: every tool call that ran is an event (metadata only), with the version that keeps it — or alone
    // (no version id) when the answer failed or was stopped before any text, as a single ask records them.
    const toolEvents = (versionId: string | null): GraphChange[] =>
      answer.toolCalls.map((call) => ({ type: 'record', event: toolCallEvent(nodeId, versionId, call) }));
    if (!answer.committed || (answer.outcome !== 'complete' && answer.text.length === 0)) {
      result.failed += 1;
      if (answer.toolCalls.length > 0) await record(null, { type: 'batch', changes: toolEvents(null) });
      return;
    }
    const current = get().graph?.nodes.get(nodeId) as QuestionNode | undefined;
    const versionId = dependencies.newId();
    const version: GraphChange = {
      type: 'add-version',
      nodeId,
      select: dispatch === first,
      version: {
        id: versionId,
        text: answer.text,
        question: node.question,
        questionAuthor: questionAuthor(current ?? node),
        model: dispatch.request.model,
        requestHash: dispatch.requestHash,
        upstreamFingerprint: snapshot.upstreamFingerprint,
        upstream: snapshot.upstream,
        origin: 'generated',
        status: answer.outcome,
        branchOf: null,
        memorySent: memoryBlock !== null,
        ...(recall?.snapshot ? { recall: recall.snapshot } : {}),
        role: plan.compiled.role,
        ...(answer.toolCalls.length > 0 ? { toolCalls: answer.toolCalls } : {}),
        // Part 2: its latency, tokens and price, for the Compare view (display only, never hashed).
        setAnswer: {
          ...dispatch.setAnswer,
          usage: setAnswerUsage(
            latencyMs,
            answer.usage,
            get().models.find((model) => model.id === dispatch.request.model) ?? null,
          ),
        },
      },
    };
    const tools = toolEvents(versionId);
    await record(null, tools.length === 0 ? version : { type: 'batch', changes: [version, ...tools] });
    if (answer.outcome === 'complete') result.answers += 1;
    else result.failed += 1;
  };
  try {
    await Promise.all(plan.requests.dispatches.map(ask));
  } finally {
    runtime.aborts.delete(key);
  }
  if (recall?.event && result.answers > 0)
    await record(null, { type: 'record', event: { ...recall.event, objectId: nodeId } });
  return result;
}
