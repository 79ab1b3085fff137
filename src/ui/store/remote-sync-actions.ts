import { canonicalJson, documentFromGraph, graphFromDocument, shareRepeatedStrings } from '../../core/index.ts';
import {
  deleteCanvasRows,
  loadCanvasDocument,
  rememberRevision,
  storedRevision,
  writeCanvasChanges,
  recordsFromDocument,
} from '../db/index.ts';
import { describeError } from '../api/index.ts';
import type { AppDependencies } from './app-dependencies.ts';
import { cacheArrivedCanvas } from './cache-arrived-canvas.ts';
import { refreshCanvasList } from './canvas-list-actions.ts';
import { publishGraph } from './graph-actions.ts';
import { recordsFromGraph, type StoreRuntime } from './store-runtime.ts';
import type { GetState, SetState, WeftState } from './weft-state.ts';

/**
 * A durable record changed outside this page (another tab, the CLI, an agent tool): `canvas-changed` from
 * `GET /api/stream`. The open canvas is refreshed unless it has local edits not yet saved (those win and are
 * saved next); this page's own saves echo back identical and change nothing. Other canvases update their
 * IndexedDB copy, so opening one later shows (and never overwrites) the newer record. The event's revision tells
 * this page's own save from anyone else's.
 */
export function createRemoteSyncActions(
  set: SetState,
  get: GetState,
  dependencies: AppDependencies,
  runtime: StoreRuntime,
): Pick<WeftState, 'canvasChangedElsewhere' | 'canvasDeletedElsewhere'> {
  const { api, database } = dependencies;

  /** This page's own save coming back: the revision it is based on is the record's (a hash, not a file time). */
  const isOwnRevision = (id: string, revision: string | undefined) =>
    revision !== undefined && runtime.revisions.get(id) === revision;

  async function refreshOpen(id: string, revision: string | undefined): Promise<boolean> {
    const shown = get().graph;
    if (isOwnRevision(id, revision)) return false;
    // Unsaved steps win: their save is refused as stale (409) and rebases them onto this newer record.
    if (!shown || runtime.writer.isBusy() || Object.keys(get().streams).length > 0) return false;
    if (runtime.journal.pending(id).length > 0) return false;
    const remote = await api.readCanvas(id);
    if (isOwnRevision(id, remote.revision)) return false;
    const current = get().graph;
    // Edited (or switched) while the record was on its way: the local state wins.
    if (current !== shown || runtime.writer.isBusy() || get().activeCanvasId !== id) return false;
    runtime.revisions.set(id, remote.revision);
    if (canonicalJson(remote.document) === canonicalJson(documentFromGraph(current))) {
      await rememberRevision(database, id, remote.revision);
      return false;
    }
    // The newer revision is stored with the rows that are its record, in their transaction: a tab closed before
    // they are written keeps the old rows under the old revision, so its next save is refused (409), not taken.
    const next = graphFromDocument(shareRepeatedStrings(remote.document));
    const previousRecords = recordsFromGraph(current);
    // Rows known to be the shown graph: after the diff below they are exactly the newer record.
    const rowsInStep = runtime.writer.holds(previousRecords);
    runtime.journal.reset(id);
    runtime.writer.adopt(recordsFromGraph(next));
    publishGraph(set, get, runtime, next, undefined, 'reset');
    const { focusedNodeId, selectedNodeIds } = get();
    set({
      focusedNodeId: focusedNodeId && next.nodes.has(focusedNodeId) ? focusedNodeId : null,
      selectedNodeIds: selectedNodeIds.filter((nodeId) => next.nodes.has(nodeId)),
    });
    // Rows the newer record no longer has (events included) go, so a reload reads exactly that record.
    await writeCanvasChanges(
      database,
      previousRecords,
      recordsFromGraph(next),
      dependencies.now(),
      remote.revision,
      rowsInStep,
    );
    get().toast('info', 'canvas-updated', `“${next.canvas.name}” was changed elsewhere; this is the newer version.`);
    return true;
  }

  async function refreshStored(id: string, revision: string | undefined): Promise<boolean> {
    if (revision !== undefined && revision === (await storedRevision(database, id))) return false;
    const abandoned = () => get().activeCanvasId === id || runtime.deletedCanvasIds.has(id);
    if (!(await database.canvases.get(id))) return cacheArrivedCanvas(dependencies, id, abandoned);
    const [local, remote] = await Promise.all([loadCanvasDocument(database, id), api.readCanvas(id)]);
    if (get().activeCanvasId === id || runtime.deletedCanvasIds.has(id)) return false;
    if (local && canonicalJson(local) === canonicalJson(remote.document)) {
      await rememberRevision(database, id, remote.revision, true);
      return false;
    }
    // The rows as read, diffed to the newer record: exactly that record afterwards.
    await writeCanvasChanges(
      database,
      local ? recordsFromDocument(local) : null,
      recordsFromDocument(remote.document),
      dependencies.now(),
      remote.revision,
    );
    return true;
  }

  return {
    async canvasChangedElsewhere(id, revision) {
      if (runtime.deletedCanvasIds.has(id)) return false;
      try {
        const changed =
          id === get().activeCanvasId ? await refreshOpen(id, revision) : await refreshStored(id, revision);
        if (changed) await refreshCanvasList(set, database);
        return changed;
      } catch (error) {
        const { code, message } = describeError(error);
        if (code !== 'not-found') get().toast('error', code, `Could not read a canvas changed elsewhere: ${message}`);
        return false;
      }
    },

    async canvasDeletedElsewhere(id) {
      if (runtime.deletedCanvasIds.has(id)) return false;
      const open = get().activeCanvasId === id;
      const name =
        get().canvases.find((canvas) => canvas.id === id)?.name ?? (open ? get().graph?.canvas.name : undefined);
      if (!open && !name && !(await database.canvases.get(id))) return false;
      runtime.deletedCanvasIds.add(id);
      try {
        // Answers still streaming into it (open or left) have nowhere to land.
        for (const [key, controller] of runtime.aborts) if (key.startsWith(`${id}:`)) controller.abort();
        const wasSaving = await runtime.writer.discard(id);
        // A save already on its way may have re-created the record after the delete: delete it again.
        if (wasSaving) await api.deleteCanvas(id).catch(() => undefined);
        await deleteCanvasRows(database, id);
        await refreshCanvasList(set, database);
        if (open && get().activeCanvasId === id) {
          const next = get().canvases[0];
          if (next) await get().openCanvas(next.id);
          else await get().createCanvas('Untitled canvas');
        }
        if (open) get().toast('info', 'canvas-deleted', `“${name ?? 'This canvas'}” was deleted elsewhere.`);
        return true;
      } catch (error) {
        const { code, message } = describeError(error);
        get().toast('error', code, `Could not drop a canvas deleted elsewhere: ${message}`);
        return false;
      }
    },
  };
}
