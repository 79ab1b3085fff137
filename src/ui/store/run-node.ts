import {
  appendEvent,
  askedByHandReason,
  applyChange,
  graphFromDocument,
  memoryReadingOf,
  rerunAllowed,
  runStepView,
  runVersion,
  shownStale,
  StaleTracker,
  toolCallEvent,
  upstreamSnapshot,
  type EventDraft,
  type Graph,
  type GraphChange,
  type StepOutcome,
} from '../../core/index.ts';
import { questionAuthor, type DispatchLane, type RunTag } from '../../../protocol/index.ts';
import { describeError } from '../api/index.ts';
import { loadCanvasDocument } from '../db/index.ts';
import type { AppDependencies } from './app-dependencies.ts';
import { publishGraph } from './graph-actions.ts';
import { plannedRequest } from './planned-request.ts';
import { receiveAnswer, requestImages } from './receive-answer.ts';
import type { StoreRuntime } from './store-runtime.ts';
import { judgeAfterAsk } from './memory-after-ask.ts';
import { recallForRun } from './recall-for-run.ts';
import { writePlaqueFor } from './plaque-after-ask.ts';
import { updateStoredCanvas } from './stored-canvas.ts';
import type { GetState, SetState, WeftState } from './weft-state.ts';

export interface NodeRun {
  canvasId: string;
  nodeId: string;
  lane: DispatchLane;
  branchOf?: string | null;
  /** A Replay step: run only while the node is still in the shown stale set (answered fresh meanwhile: skip). */
  onlyIfStale?: boolean;
  /**
   * Issue 31: a step of a re-run under another model. The node compiles from the run's own upstream answers with the
   * run's model (`runStepView`); only a complete answer is kept, tagged with the run and never selected; no plaque.
   */
  rerun?: RunTag;
}

/** The key of a run in `runtime.aborts`: by canvas too, since a duplicated canvas shares node ids with its source. */
export function runKey(canvasId: string, nodeId: string): string {
  return `${canvasId}:${nodeId}`;
}

function withEvent(graph: Graph, draft: EventDraft, dependencies: AppDependencies): Graph {
  const record = appendEvent(graph.events, draft, { now: dependencies.now(), newId: dependencies.newId });
  return { ...graph, events: [...graph.events, record] };
}

/**
 * The one execution path of a node's run — Ask, each auto-rerun and each Replay step — whether its canvas is
 * open or the person has left it: check, compile, send, stream, then write the commit event and the version
 * into the canvas the run belongs to (the open graph, or that canvas's stored copy).
 */
/** A re-run step's canvas: the run's view, stale marks only on what the run has not answered (its answers are fresh). */
function rerunCompiled(
  current: { graph: Graph; shown: ReadonlySet<string> },
  nodeId: string,
  rerun: RunTag,
): { graph: Graph; shown: ReadonlySet<string> } {
  const graph = runStepView(current.graph, nodeId, rerun);
  const shown = new Set([...current.shown].filter((id) => !runVersion(graph.nodes.get(id), rerun.name)));
  return { graph, shown };
}

export function createNodeRunner(set: SetState, get: GetState, dependencies: AppDependencies, runtime: StoreRuntime) {
  function setStream(nodeId: string, update: WeftState['streams'][string] | null): void {
    set((state) => {
      const streams = { ...state.streams };
      if (update) streams[nodeId] = update;
      else delete streams[nodeId];
      return { streams };
    });
  }

  /** The canvas a run belongs to, as it is now: the open graph and its shown set, or its stored copy. */
  async function canvasGraph(canvasId: string): Promise<{ graph: Graph; shown: ReadonlySet<string> } | null> {
    const state = get();
    if (state.graph?.canvas.id === canvasId) return { graph: state.graph, shown: state.shown };
    // Deleted (here or elsewhere) meanwhile: nothing may run or be written there.
    if (runtime.deletedCanvasIds.has(canvasId)) return null;
    const document = await loadCanvasDocument(dependencies.database, canvasId);
    if (!document) return null;
    const graph = graphFromDocument(document);
    return { graph, shown: shownStale(graph, new StaleTracker(graph)) };
  }

  /** Writes a commit event and/or a finished version into a canvas that is no longer open (nothing is lost). */
  async function saveIntoLeftCanvas(
    canvasId: string,
    question: string,
    commit: EventDraft | null,
    change: GraphChange | null,
  ): Promise<void> {
    if (runtime.deletedCanvasIds.has(canvasId)) return;
    try {
      const saved = await updateStoredCanvas(dependencies, canvasId, (stored) => {
        let next = commit ? withEvent(stored, commit, dependencies) : stored;
        if (change) {
          const result = applyChange(next, change, { now: dependencies.now(), newId: dependencies.newId });
          if (!result.ok) return commit ? next : null;
          next = result.value.graph;
        }
        return next;
      });
      if (saved && change)
        get().toast(
          'info',
          'answer-saved',
          `The answer to “${question.slice(0, 60)}” was saved in “${saved.canvas.name}”.`,
        );
    } catch (error) {
      const { code, message } = describeError(error);
      get().toast('error', code, `An answer that finished after you left its canvas could not be saved: ${message}`);
    }
  }

  async function runNode(run: NodeRun): Promise<StepOutcome> {
    const { canvasId, nodeId, lane } = run;
    const key = runKey(canvasId, nodeId);
    if (runtime.aborts.has(key)) return 'skipped';
    const current = await canvasGraph(canvasId);
    if (!current) return 'skipped';
    const { graph, shown } = run.rerun ? rerunCompiled(current, nodeId, run.rerun) : current;
    const node = graph.nodes.get(nodeId);
    // Re-checked at run time: a node archived, emptied or answered fresh meanwhile is skipped.
    if (!node || node.kind !== 'question' || !rerunAllowed(node).ok || !node.question.trim()) return 'skipped';
    // C24: an agent-lane node writes files, so only the person's own Ask (runAgentTurn) ever starts it.
    if (askedByHandReason(node)) return 'skipped';
    if (run.onlyIfStale && !shown.has(nodeId)) return 'skipped';
    // The model list and settings (the default model) are read beside the first canvas: a run waits for them.
    await Promise.all([runtime.modelsRead, runtime.settingsRead]);
    if (runtime.aborts.has(key)) return 'skipped';
    const { models, defaultModelId } = get();
    // C14: the same block the preview shows, so the preview's hash is the request's and the commit's.
    const memoryBlock = dependencies.memory?.blockFor(canvasId, lane, memoryReadingOf(node)) ?? null;
    // C16: a fresh recall plan for this ask (the preview showed the same one); a refusal stops the run.
    const recall = await recallForRun(get, dependencies, graph, node, lane);
    if (recall === 'refused') return 'failed';
    const { built, compiled, model } = plannedRequest(
      { graph, shown, models, defaultModelId },
      nodeId,
      lane,
      undefined,
      memoryBlock,
      recall?.block ?? null,
    )!;
    if (compiled.roleConflict) {
      // C29: parents bring different roles; the person picks one on the node, nothing is guessed.
      get().toast(
        'error',
        'role-conflict',
        `Pick a role for “${node.question.slice(0, 60)}”: its parents bring different roles.`,
      );
      return 'failed';
    }
    const snapshot = upstreamSnapshot(graph, nodeId);
    const images = requestImages(graph, compiled, model);
    const controller = new AbortController();
    runtime.aborts.set(key, controller);
    // The answer streams on screen only while its canvas is open.
    let streaming = false;
    const show = (text: string) => {
      if (get().graph?.canvas.id !== canvasId) return;
      streaming = true;
      setStream(nodeId, { text, requestHash: built.requestHash, model: model.id, lane });
    };
    show('');
    let commitWritten = false;
    let answer: Awaited<ReturnType<typeof receiveAnswer>>;
    try {
      answer = await receiveAnswer(
        dependencies,
        // The node it answers, so the server's ledger records this commit for it (memory's evidence).
        { request: built.request, requestHash: built.requestHash, images, target: { canvasId, nodeId } },
        controller,
        get().toast,
        {
          onAccepted() {
            // C9: the commit event is written when the server confirms what it sends.
            const open = get().graph;
            if (open && open.canvas.id === canvasId) {
              publishGraph(set, get, runtime, withEvent(open, built.commit, dependencies), [], 'keep');
              commitWritten = true;
            }
          },
          onDelta: show,
        },
      );
    } finally {
      runtime.aborts.delete(key);
      if (streaming) setStream(nodeId, null);
    }
    const { text, committed, outcome, toolCalls } = answer;
    if (!committed) return 'failed';
    // A re-run keeps complete answers only: a stopped step leaves nothing half-written in the run.
    const keep = run.rerun ? outcome === 'complete' : outcome === 'complete' || text.length > 0;
    const versionId = dependencies.newId();
    const version: GraphChange | null = keep
      ? {
          type: 'add-version',
          nodeId,
          select: !run.rerun,
          version: {
            id: versionId,
            text,
            question: node.question,
            // C14: who wrote the question as asked, frozen with it (an edit during the stream makes the node theirs).
            questionAuthor: questionAuthor(node),
            model: model.id,
            requestHash: built.requestHash,
            upstreamFingerprint: snapshot.upstreamFingerprint,
            upstream: snapshot.upstream,
            origin: 'generated',
            status: outcome,
            branchOf: run.branchOf ?? null,
            memorySent: memoryBlock !== null,
            ...(recall?.snapshot ? { recall: recall.snapshot } : {}),
            role: compiled.role,
            ...(toolCalls.length > 0 ? { toolCalls } : {}),
            ...(run.rerun ? { run: run.rerun } : {}),
          },
        }
      : null;
    // C35, C10: every tool call that ran is an event (metadata only), written with the version that keeps it —
    // or alone (no version id) when the ask failed or was stopped before any text, so no call goes unrecorded.
    // C10: recall is a decision with an event (metadata only: counts and the block's hash, never text).
    const recallEvent: GraphChange[] =
      version && recall?.event ? [{ type: 'record', event: { ...recall.event, objectId: nodeId } }] : [];
    const toolEvents = toolCalls.map((call): GraphChange => ({
      type: 'record',
      event: toolCallEvent(nodeId, version ? versionId : null, call),
    }));
    const changes = [...(version ? [version] : []), ...recallEvent, ...toolEvents];
    const change: GraphChange | null =
      changes.length === 0 ? null : changes.length === 1 ? changes[0]! : { type: 'batch', changes };
    const open = get().graph;
    if (open?.canvas.id === canvasId) {
      // Open again (or still): a commit missed while the person was away lands now, then the version.
      if (!commitWritten) publishGraph(set, get, runtime, withEvent(open, built.commit, dependencies), [], 'keep');
      if (change) get().apply(change);
    } else {
      await saveIntoLeftCanvas(canvasId, node.question, commitWritten ? null : built.commit, change);
    }
    // C32: every kept answer gets its plaque, fire-and-forget (display only, it never delays the run).
    if (dependencies.plaques && version && outcome === 'complete' && !run.rerun)
      void writePlaqueFor(set, get, dependencies, runtime, graph, {
        canvasId,
        nodeId,
        versionId,
        question: node.question,
        answer: text,
        model: model.id,
        lane,
      });
    // Issue 31: its rubric checks were claimed for the judge when the version landed (`judgePendingRubrics`).
    // The memory judge runs after an ordinary ask only (not Replay, auto-rerun or agent lanes), and never delays it.
    const memory = dependencies.memory;
    if (memory && lane === 'chat' && outcome === 'complete' && !run.onlyIfStale)
      void judgeAfterAsk(set, get, { ...dependencies, memory }, runtime, {
        canvasId,
        nodeId,
        versionId,
        commitHash: built.requestHash,
      });
    return outcome === 'complete' ? 'complete' : 'failed';
  }

  return { runNode, canvasGraph };
}

export type NodeRunner = ReturnType<typeof createNodeRunner>;
