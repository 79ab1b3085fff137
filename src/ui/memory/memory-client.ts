import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  DispatchLane,
  MemoryJudgeRequest,
  MemoryJudgeResponse,
  MemoryStateResponse,
  MemoryWriteResponse,
} from '../../../protocol/index.ts';
import { memoryBlock } from '../../core/memory/index.ts';
import type { ApiClientOptions } from '../api/api-client.ts';
import { describeError } from '../api/api-error.ts';
import { createMemoryApi, type MemoryApi } from './memory-api.ts';

/** How long the admission toast offers Undo (C14). */
export const UNDO_WINDOW_MS = 8000;

export interface MemoryView {
  /** The profile, activity and switches as last read from the server; null before the first read. */
  loaded: MemoryStateResponse | null;
  error: string | null;
  /** The newest admission that can still be undone from its toast. */
  pendingUndo: { id: string; lineIds: string[]; canvasId: string; until: number } | null;
}

/** Lanes whose requests carry the [Memory] block: every ordinary generation, never an agent run. */
const MEMORY_LANES: ReadonlySet<DispatchLane> = new Set(['chat', 'replay', 'auto-rerun']);

/**
 * The page's memory: the profile as the server has it, the [Memory] block each dispatch inserts (the preview and
 * the run read the same one, so their hashes agree), the judge call after an ordinary ask, and Undo.
 */
export interface MemoryClient {
  api: MemoryApi;
  view: StoreApi<MemoryView>;
  refresh(): Promise<void>;
  /** The block a dispatch of `lane` on `canvasId` sends now, or null (off for the canvas, empty, or an agent lane). */
  blockFor(canvasId: string, lane: DispatchLane): string | null;
  /** A visit id per canvas: a new one each time the person opens the canvas again. */
  visitFor(canvasId: string): string;
  /** Runs the judge on an ordinary ask's exchange; never throws (a failure is a toast-worthy message). */
  judge(
    request: Omit<MemoryJudgeRequest, 'visitId'>,
  ): Promise<{ ok: true; value: MemoryJudgeResponse } | { ok: false; message: string }>;
  /** Undoes the newest admission; its events (metadata) are for the log of the canvas it came from. */
  undoLast(): Promise<{ ok: boolean; message: string; canvasId: string | null; events: MemoryWriteResponse['events'] }>;
}

export function createMemoryClient(options: ApiClientOptions = {}, now: () => number = Date.now): MemoryClient {
  const api = createMemoryApi(options);
  const view = createStore<MemoryView>(() => ({ loaded: null, error: null, pendingUndo: null }));
  let visit: { canvasId: string; id: string } | null = null;
  let visits = 0;

  async function refresh(): Promise<void> {
    try {
      view.setState({ loaded: await api.state(), error: null });
    } catch (error) {
      view.setState({ error: describeError(error).message });
    }
  }

  return {
    api,
    view,
    refresh,
    blockFor(canvasId, lane) {
      const loaded = view.getState().loaded;
      if (!loaded || !MEMORY_LANES.has(lane) || loaded.offCanvases.includes(canvasId)) return null;
      return memoryBlock(loaded.profile);
    },
    visitFor(canvasId) {
      if (visit?.canvasId !== canvasId) visit = { canvasId, id: `${now().toString(36)}-${++visits}` };
      return visit.id;
    },
    async judge(request) {
      try {
        const value = await api.judge({ ...request, visitId: this.visitFor(request.canvasId) });
        if (value.undo)
          view.setState({
            pendingUndo: { ...value.undo, canvasId: request.canvasId, until: now() + UNDO_WINDOW_MS },
          });
        await refresh();
        return { ok: true, value };
      } catch (error) {
        return { ok: false, message: describeError(error).message };
      }
    },
    async undoLast() {
      const pending = view.getState().pendingUndo;
      if (!pending || now() > pending.until)
        return { ok: false, message: 'There is no admission to undo any more.', canvasId: null, events: [] };
      view.setState({ pendingUndo: null });
      try {
        const { events } = await api.undo(pending.id);
        await refresh();
        return {
          ok: true,
          message: 'Undone: the profile is as it was, and the fact will not be admitted again.',
          canvasId: pending.canvasId,
          events,
        };
      } catch (error) {
        return { ok: false, message: describeError(error).message, canvasId: null, events: [] };
      }
    },
  };
}

/** The page's one client (same origin, cookie auth). Tests make their own with `createMemoryClient(options)`. */
export const memoryClient = createMemoryClient();
