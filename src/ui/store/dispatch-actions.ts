import {
  appendEvent,
  applyChange,
  autoRerunTargets,
  buildRequest,
  compile,
  graphFromDocument,
  replayOrder,
  rerunAllowed,
  shownStale,
  StaleTracker,
  upstreamSnapshot,
  type EstimateTokens,
  type EventDraft,
  type Graph,
  type GraphChange,
} from '../../core/index.ts';
import { OFFLINE_RECEIPT_MODEL_ID, type ModelInfo } from '../../../protocol/http-api.ts';
import { describeError } from '../api/api-error.ts';
import { loadCanvasDocument } from '../db/canvas-persistence.ts';
import type { AppDependencies } from './app-dependencies.ts';
import { requestImages, streamAnswer, type StreamedAnswer } from './answer-stream.ts';
import { publishGraph } from './graph-actions.ts';
import type { StoreRuntime } from './store-runtime.ts';
import { updateStoredCanvas } from './stored-canvas.ts';
import type { AskOptions, GetState, SetState, WeftState } from './weft-state.ts';

type DispatchActions = Pick<WeftState, 'ask' | 'stop' | 'openReplayDialog' | 'replayStale' | 'stopReplay'>;

interface InternalAskOptions extends AskOptions {
  /** Reruns already made per node in this wave (C4 bound), shared across one Replay or completion. */
  wave?: Map<string, number>;
}

/** The model a node dispatches to: its pin, else the default, else the offline receipt. */
export function modelFor(
  state: Pick<WeftState, 'models' | 'defaultModelId'>,
  pinned: string | null,
): ModelInfo | { id: string; takesImages: boolean; pricePerMTokIn: null } {
  const id = pinned ?? state.defaultModelId ?? OFFLINE_RECEIPT_MODEL_ID;
  return state.models.find((model) => model.id === id) ?? { id, takesImages: false, pricePerMTokIn: null };
}

/**
 * What the dispatch of `nodeId` will send now: the preview calls this, and so does `ask`. `countTokensFor`
 * gives the token counter of the node's model (the preview and Replay pass one); the request bytes never
 * depend on it.
 */
export function plannedRequest(
  state: Pick<WeftState, 'graph' | 'shown' | 'models' | 'defaultModelId'>,
  nodeId: string,
  lane: AskOptions['lane'] = 'chat',
  countTokensFor?: (modelId: string) => EstimateTokens,
) {
  const graph = state.graph;
  const node = graph?.nodes.get(nodeId);
  if (!graph || !node || node.kind !== 'question') return null;
  const model = modelFor(state, node.model);
  const estimateTokens = countTokensFor?.(model.id);
  const compiled = compile(graph, nodeId, { stale: state.shown, ...(estimateTokens ? { estimateTokens } : {}) });
  const built = buildRequest(compiled, { model: model.id, images: model.takesImages, lane });
  return { compiled, built, model };
}

/** Count, tokens and price of a Replay of the shown stale set (C8), shown before it runs. */
export function replayEstimate(
  state: Pick<WeftState, 'graph' | 'shown' | 'models' | 'defaultModelId'>,
  countTokensFor?: (modelId: string) => EstimateTokens,
): {
  order: string[];
  tokens: number;
  price: number | null;
} {
  const graph = state.graph;
  if (!graph) return { order: [], tokens: 0, price: null };
  const order = replayOrder(graph, state.shown).filter((id) => rerunAllowed(graph.nodes.get(id)).ok);
  let tokens = 0;
  let price: number | null = 0;
  for (const id of order) {
    const planned = plannedRequest(state, id, 'replay', countTokensFor);
    if (!planned) continue;
    tokens += planned.compiled.tokens.total;
    const perMillion = planned.model.pricePerMTokIn;
    price =
      price === null || perMillion === null ? null : price + (planned.compiled.tokens.total * perMillion) / 1_000_000;
  }
  return { order, tokens, price };
}

function withEvent(graph: Graph, draft: EventDraft, dependencies: AppDependencies): Graph {
  const record = appendEvent(graph.events, draft, { now: dependencies.now(), newId: dependencies.newId });
  return { ...graph, events: [...graph.events, record] };
}

export function createDispatchActions(
  set: SetState,
  get: GetState,
  dependencies: AppDependencies,
  runtime: StoreRuntime,
): DispatchActions {
  function setStream(nodeId: string, update: WeftState['streams'][string] | null): void {
    set((state) => {
      const streams = { ...state.streams };
      if (update) streams[nodeId] = update;
      else delete streams[nodeId];
      return { streams };
    });
  }

  /** Writes a commit event and/or a finished version into a canvas that is no longer open (nothing is lost). */
  async function saveIntoLeftCanvas(
    canvasId: string,
    question: string,
    commit: EventDraft | null,
    change: GraphChange | null,
  ): Promise<void> {
    // Deleted (here or elsewhere) meanwhile: writing would re-create it.
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

  /**
   * A Replay whose canvas was left goes on there (like a single answer that outlives its canvas): the node is
   * re-checked against that canvas's stored copy, asked, and its version written back. Nothing streams on screen.
   */
  async function askInStoredCanvas(canvasId: string, nodeId: string): Promise<void> {
    if (runtime.deletedCanvasIds.has(canvasId)) return;
    const document = await loadCanvasDocument(dependencies.database, canvasId);
    if (!document) return;
    const graph = graphFromDocument(document);
    const shown = shownStale(graph, new StaleTracker(graph));
    const node = graph.nodes.get(nodeId);
    if (!node || node.kind !== 'question' || !rerunAllowed(node).ok || !shown.has(nodeId) || !node.question.trim())
      return;
    const { models, defaultModelId } = get();
    const { built, compiled, model } = plannedRequest({ graph, shown, models, defaultModelId }, nodeId, 'replay')!;
    const snapshot = upstreamSnapshot(graph, nodeId);
    const images = requestImages(graph, compiled, model);
    // Keyed by canvas too: a duplicated canvas shares node ids with its source.
    const key = `${canvasId}:${nodeId}`;
    const controller = new AbortController();
    runtime.aborts.set(key, controller);
    let answer: StreamedAnswer;
    try {
      answer = await streamAnswer(
        dependencies,
        { request: built.request, requestHash: built.requestHash, images },
        controller,
        get().toast,
      );
    } finally {
      runtime.aborts.delete(key);
    }
    const { text, committed, outcome } = answer;
    if (!committed) return;
    const keep = outcome === 'complete' || text.length > 0;
    const version = {
      text,
      question: node.question,
      model: model.id,
      requestHash: built.requestHash,
      upstreamFingerprint: snapshot.upstreamFingerprint,
      upstreamParts: snapshot.upstreamParts,
      origin: 'generated' as const,
      status: outcome,
      branchOf: null,
    };
    await saveIntoLeftCanvas(
      canvasId,
      node.question,
      built.commit,
      keep ? { type: 'add-version', nodeId, select: true, version } : null,
    );
  }

  async function ask(nodeId: string, options: InternalAskOptions = {}): Promise<boolean> {
    const state = get();
    const graph = state.graph;
    const node = graph?.nodes.get(nodeId);
    const verdict = rerunAllowed(node);
    if (!graph || !node || node.kind !== 'question' || !verdict.ok) {
      state.toast(
        'error',
        verdict.ok ? 'not-runnable' : verdict.code,
        verdict.ok ? 'Only question nodes can be asked.' : verdict.reason,
      );
      return false;
    }
    if (runtime.aborts.has(nodeId)) return false;
    if (!node.question.trim()) {
      state.toast('error', 'empty-question', 'Write a question before asking.');
      return false;
    }
    const lane = options.lane ?? 'chat';
    const canvasId = graph.canvas.id;
    const planned = plannedRequest(state, nodeId, lane)!;
    const { built, compiled, model } = planned;
    const snapshot = upstreamSnapshot(graph, nodeId);
    const images = requestImages(graph, compiled, model);
    const controller = new AbortController();
    runtime.aborts.set(nodeId, controller);
    setStream(nodeId, { text: '', requestHash: built.requestHash, model: model.id, lane });
    // The commit event lands in the open canvas only while it is this node's canvas; otherwise it is written later.
    let commitWritten = false;
    let answer: StreamedAnswer;
    try {
      answer = await streamAnswer(
        dependencies,
        { request: built.request, requestHash: built.requestHash, images },
        controller,
        get().toast,
        {
          onAccepted() {
            // C9: the commit event is written when the server confirms what it sends.
            const current = get().graph;
            if (current && current.canvas.id === canvasId) {
              publishGraph(set, get, runtime, withEvent(current, built.commit, dependencies), [], 'keep');
              commitWritten = true;
            }
          },
          onDelta: (text) => setStream(nodeId, { text, requestHash: built.requestHash, model: model.id, lane }),
        },
      );
    } finally {
      runtime.aborts.delete(nodeId);
      setStream(nodeId, null);
    }
    const { text, committed, outcome } = answer;
    const keep = committed && (outcome === 'complete' || text.length > 0);
    const version = {
      text,
      question: node.question,
      model: model.id,
      requestHash: built.requestHash,
      upstreamFingerprint: snapshot.upstreamFingerprint,
      upstreamParts: snapshot.upstreamParts,
      origin: 'generated' as const,
      status: outcome,
      branchOf: options.branchOf ?? null,
    };
    if (get().graph?.canvas.id !== canvasId) {
      // The person switched canvases while this answer streamed: it is written into the canvas it came from.
      if (committed)
        await saveIntoLeftCanvas(
          canvasId,
          node.question,
          commitWritten ? null : built.commit,
          keep ? { type: 'add-version', nodeId, select: true, version } : null,
        );
      return false;
    }
    if (keep) get().apply({ type: 'add-version', nodeId, select: true, version });
    if (outcome !== 'complete') return false;
    // C4: auto-rerun nodes downstream of this completion, bounded per wave; archived never run.
    const wave = options.wave ?? new Map<string, number>();
    const after = get().graph;
    if (after) {
      for (const target of autoRerunTargets(after, nodeId, wave)) {
        if (runtime.replayStopped && lane === 'replay') break;
        wave.set(target, (wave.get(target) ?? 0) + 1);
        await ask(target, { lane: 'auto-rerun', wave });
      }
    }
    return true;
  }

  return {
    ask: (nodeId, options) => ask(nodeId, options),
    stop(nodeId) {
      runtime.aborts.get(nodeId)?.abort();
    },
    openReplayDialog(open) {
      set({ replayDialogOpen: open });
    },
    async replayStale() {
      const { order } = replayEstimate(get());
      const canvasId = get().activeCanvasId;
      runtime.replayStopped = false;
      set({ replayDialogOpen: false, replay: { total: order.length, done: 0, currentNodeId: null, running: true } });
      const wave = new Map<string, number>();
      for (const nodeId of order) {
        if (runtime.replayStopped) break;
        const graph = get().graph;
        if (canvasId && graph?.canvas.id !== canvasId) {
          // The person switched canvases: the rest is replayed into the canvas the Replay started in.
          set((state) => ({ replay: state.replay && { ...state.replay, currentNodeId: nodeId } }));
          await askInStoredCanvas(canvasId, nodeId);
        } else if (graph && rerunAllowed(graph.nodes.get(nodeId)).ok && get().shown.has(nodeId)) {
          // Re-check at run time: a node archived or answered fresh meanwhile is skipped.
          set((state) => ({ replay: state.replay && { ...state.replay, currentNodeId: nodeId } }));
          await ask(nodeId, { lane: 'replay', wave });
        }
        set((state) => ({ replay: state.replay && { ...state.replay, done: state.replay.done + 1 } }));
      }
      set((state) => ({ replay: state.replay && { ...state.replay, running: false, currentNodeId: null } }));
    },
    stopReplay() {
      runtime.replayStopped = true;
      for (const controller of runtime.aborts.values()) controller.abort();
    },
  };
}
