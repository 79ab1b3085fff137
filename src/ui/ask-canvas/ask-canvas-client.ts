import { createStore, type StoreApi } from 'zustand/vanilla';
import { askCanvasEvent } from '../../core/ask-canvas/index.ts';
import type { AskCanvasLayers, AskCanvasTurn } from '../../../protocol/index.ts';
import { clientHandshake, describeError } from '../api/index.ts';
import type { WeftStore } from '../store/index.ts';
import { createAskCanvasApi, type AskCanvasApi } from './ask-canvas-api.ts';
import { planAsk } from './plan-ask.ts';

/** The ask under way: what was sent, and the answer as it streams. */
export interface PendingAsk {
  canvasId: string;
  turnId: string;
  question: string;
  focusId: string | null;
  layers: AskCanvasLayers;
  model: string;
  requestHash: string;
  /** True once the server confirmed it hashed the same request and handed it to the model. */
  accepted: boolean;
  text: string;
}

export interface AskCanvasView {
  open: boolean;
  previewOpen: boolean;
  /** The canvas whose chat `turns` holds, or null before the first read. */
  canvasId: string | null;
  turns: AskCanvasTurn[];
  error: string | null;
  pending: PendingAsk | null;
}

export interface AskCanvasClient {
  view: StoreApi<AskCanvasView>;
  setOpen(open: boolean): void;
  setPreviewOpen(open: boolean): void;
  /** Reads the stored chat of `canvasId` (the server keeps one per canvas). */
  load(canvasId: string): Promise<void>;
  /** Asks the open canvas; resolves once the answer ended (finished, failed or stopped). */
  send(store: WeftStore, question: string): Promise<boolean>;
  stop(): void;
  clear(canvasId: string): Promise<void>;
}

export function createAskCanvasClient(
  api: AskCanvasApi,
  newId: () => string = () => globalThis.crypto.randomUUID(),
  now: () => number = Date.now,
): AskCanvasClient {
  const view = createStore<AskCanvasView>(() => ({
    open: false,
    previewOpen: false,
    canvasId: null,
    turns: [],
    error: null,
    pending: null,
  }));
  let controller: AbortController | null = null;

  async function load(canvasId: string): Promise<void> {
    try {
      const chat = await api.chat(canvasId);
      view.setState({ canvasId, turns: chat.turns, error: null });
    } catch (error) {
      view.setState({ canvasId, turns: [], error: describeError(error).message });
    }
  }

  const setPending = (update: Partial<PendingAsk>) =>
    view.setState((state) => ({ pending: state.pending && { ...state.pending, ...update } }));

  return {
    view,
    setOpen: (open) => view.setState({ open }),
    setPreviewOpen: (previewOpen) => view.setState({ previewOpen }),
    load,
    async send(store, question) {
      const state = store.getState();
      const graph = state.graph;
      const asked = question.trim();
      if (!graph || view.getState().pending) return false;
      if (!asked) {
        state.toast('error', 'empty-question', 'Write a question about the canvas first.');
        return false;
      }
      const canvasId = graph.canvas.id;
      if (view.getState().canvasId !== canvasId) await load(canvasId);
      const planned = planAsk(store.getState(), view.getState().turns, asked);
      if (!planned) return false;
      const { plan, focusId } = planned;
      const turnId = newId();
      view.setState({
        pending: {
          canvasId,
          turnId,
          question: asked,
          focusId,
          layers: plan.layers,
          model: planned.model.id,
          requestHash: plan.requestHash,
          accepted: false,
          text: '',
        },
      });
      const abort = new AbortController();
      controller = abort;
      let status: AskCanvasTurn['status'] = 'aborted';
      let code: string | null = null;
      const toast = store.getState().toast;
      const handshake = clientHandshake({
        expectedHash: plan.requestHash,
        what: 'ask',
        controller: abort,
        refuse: (failure, message) => toast('error', failure, message),
      });
      try {
        const body = {
          turnId,
          question: asked,
          focusId,
          layers: plan.layers,
          request: plan.request,
          requestHash: plan.requestHash,
          images: planned.images,
        };
        for await (const event of api.ask(canvasId, body, abort.signal)) {
          if (event.type === 'request-accepted') {
            if (handshake.receive(event.requestHash) === 'refused') {
              status = 'failed';
              break;
            }
            setPending({ accepted: true });
            // C10: the turn's event goes into the log of the canvas it asked, when that canvas is still open.
            handshake.commit(() => {
              if (store.getState().graph?.canvas.id === canvasId)
                store.getState().apply({ type: 'record', event: askCanvasEvent(turnId, plan, focusId) });
            });
          } else if (event.type === 'text-delta' && view.getState().pending?.accepted) {
            setPending({ text: (view.getState().pending?.text ?? '') + event.delta });
          } else if (event.type === 'answer-finished') {
            status = 'complete';
            break;
          } else if (event.type === 'answer-failed') {
            status = event.code === 'aborted' ? 'aborted' : 'failed';
            code = status === 'failed' ? event.code : null;
            if (status === 'failed') toast('error', event.code, event.message);
            break;
          }
        }
      } catch (error) {
        if (!abort.signal.aborted) {
          const failure = describeError(error);
          status = 'failed';
          code = failure.code;
          toast('error', failure.code, failure.message);
        }
      } finally {
        controller = null;
      }
      const ended = view.getState().pending!;
      // The server stores the turn once the stream ends; a Stop can outrun that write, so keep what this page saw.
      if (view.getState().canvasId === canvasId) await load(canvasId);
      if (
        ended.accepted &&
        view.getState().canvasId === canvasId &&
        !view.getState().turns.some((turn) => turn.id === turnId)
      )
        view.setState((current) => ({
          turns: [
            ...current.turns,
            {
              id: turnId,
              askedAt: now(),
              question: asked,
              answer: ended.text,
              status,
              code,
              model: ended.model,
              requestHash: ended.requestHash,
              focusId,
              layers: ended.layers,
            },
          ],
        }));
      view.setState({ pending: null });
      return status === 'complete';
    },
    stop() {
      controller?.abort();
    },
    async clear(canvasId) {
      try {
        const chat = await api.clear(canvasId);
        view.setState({ canvasId, turns: chat.turns, error: null });
      } catch (error) {
        view.setState({ error: describeError(error).message });
      }
    },
  };
}

/** The page's one client (the panel, the command and the tests share it). */
export const askCanvasClient = createAskCanvasClient(createAskCanvasApi());
