import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  DispatchLane,
  MemoryJudgeRequest,
  MemoryJudgeResponse,
  MemoryReading,
  MemoryStateResponse,
  MemoryWriteResponse,
} from '../../../protocol/index.ts';
import { memoryBlock } from '../../core/memory/index.ts';
import { type ApiClientOptions, describeError, createMemoryApi, type MemoryApi } from '../api/index.ts';

/** How long the admission toast offers Undo (C14). */
export const UNDO_WINDOW_MS = 8000;

export interface MemoryView {
  /** The profile, activity and switches as last read from the server; null before the first read. */
  loaded: MemoryStateResponse | null;
  error: string | null;
  /** Admissions that can still be undone from their toasts, oldest first. */
  pendingUndos: { id: string; lineIds: string[]; canvasId: string; until: number }[];
}

/** Lanes whose requests carry the [Memory] block: every ordinary generation, never an agent run. */
const MEMORY_LANES: ReadonlySet<DispatchLane> = new Set(['chat', 'replay', 'auto-rerun']);

/**
 * The page's memory: the profile as the server has it, the [Memory] block each dispatch inserts (the preview and
 * the run read the same one, so their hashes agree), the judge call after an ordinary ask, and Undo.
 */
export interface UndoOutcome {
  ok: boolean;
  message: string;
  canvasId: string | null;
  events: MemoryWriteResponse['events'];
}

export interface MemoryClient {
  api: MemoryApi;
  view: StoreApi<MemoryView>;
  refresh(): Promise<void>;
  /**
   * The block a dispatch of `lane` on `canvasId` sends now, or null (off for the canvas, empty, or an agent lane),
   * read as the node reads memory (#29: inferred lines only behind its switch; its "as of" date serves the lines
   * valid then).
   */
  blockFor(canvasId: string, lane: DispatchLane, reading?: Partial<MemoryReading>): string | null;
  /** Runs the judge on an ordinary ask's exchange; never throws (a failure is a toast-worthy message). */
  judge(
    request: MemoryJudgeRequest,
  ): Promise<{ ok: true; value: MemoryJudgeResponse } | { ok: false; message: string }>;
  /** Undoes the admission `id` (its toast's); its events (metadata) are for the log of the canvas it came from. */
  undo(id: string): Promise<UndoOutcome>;
  /** Undoes the newest admission still pending. */
  undoLast(): Promise<UndoOutcome>;
}

export function createMemoryClient(options: ApiClientOptions = {}, now: () => number = Date.now): MemoryClient {
  const api = createMemoryApi(options);
  const view = createStore<MemoryView>(() => ({ loaded: null, error: null, pendingUndos: [] }));

  async function refresh(): Promise<void> {
    try {
      view.setState({ loaded: await api.state(), error: null });
    } catch (error) {
      view.setState({ error: describeError(error).message });
    }
  }

  /** Pending undos whose toast window is still open. */
  const live = () => view.getState().pendingUndos.filter((entry) => now() <= entry.until);
  const gone = (): UndoOutcome => ({
    ok: false,
    message: 'There is no admission to undo any more.',
    canvasId: null,
    events: [],
  });

  return {
    api,
    view,
    refresh,
    blockFor(canvasId, lane, reading = {}) {
      const loaded = view.getState().loaded;
      if (!loaded || !MEMORY_LANES.has(lane) || loaded.offCanvases.includes(canvasId)) return null;
      return memoryBlock(loaded.profile, reading);
    },
    async judge(request) {
      try {
        const value = await api.judge(request);
        if (value.undo) {
          const pending = { ...value.undo, canvasId: request.canvasId, until: now() + UNDO_WINDOW_MS };
          view.setState({ pendingUndos: [...live(), pending] });
        }
        await refresh();
        return { ok: true, value };
      } catch (error) {
        return { ok: false, message: describeError(error).message };
      }
    },
    async undoLast() {
      const newest = live().at(-1);
      return newest ? this.undo(newest.id) : gone();
    },
    async undo(id) {
      const pending = live().find((entry) => entry.id === id);
      if (!pending) return gone();
      view.setState({ pendingUndos: live().filter((entry) => entry !== pending) });
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
