import {
  appendEvent,
  demoCanvas,
  documentFromGraph,
  emptyCanvasDocument,
  graphFromDocument,
  loadCanvas,
  shareRepeatedStrings,
} from '../../core/index.ts';
import type { CanvasDocument } from '../../../protocol/index.ts';
import {
  deleteCanvasRows,
  exactRevision,
  loadCanvasDocument,
  markRevisionExact,
  storedRevision,
  writeCanvasChanges,
  recordsFromDocument,
} from '../db/index.ts';
import { applyKeptAgentAnswers } from './kept-agent-answers.ts';
import { describeError } from '../api/index.ts';
import type { AppDependencies } from './app-dependencies.ts';
import { publishOpenedGraph } from './deferred-staleness.ts';
import { takeOverPending } from './pending-replay.ts';
import { recordsFromGraph, type StoreRuntime } from './store-runtime.ts';
import type { GetState, SetState, WeftState } from './weft-state.ts';

const ACTIVE_KEY = 'activeCanvasId';

/** Performance marks for `bench:ui` and the browser's profiler; no-ops where unsupported. */
function mark(name: string): void {
  globalThis.performance?.mark?.(name);
}

/** Re-reads the canvas list (newest first) from IndexedDB. */
export async function refreshCanvasList(set: SetState, database: AppDependencies['database']): Promise<void> {
  const rows = await database.canvases.orderBy('updatedAt').reverse().toArray();
  set({
    canvases: rows.map((row) => ({
      id: row.id,
      name: row.meta.name,
      updatedAt: row.updatedAt,
      nodeCount: row.nodeCount,
      workingDirectory: row.meta.workingDirectory,
    })),
  });
}

type CanvasListActions = Pick<
  WeftState,
  | 'initialise'
  | 'openCanvas'
  | 'createCanvas'
  | 'renameCanvas'
  | 'duplicateCanvas'
  | 'deleteCanvas'
  | 'importDocument'
  | 'exportDocument'
  | 'flush'
>;

export function createCanvasListActions(
  set: SetState,
  get: GetState,
  dependencies: AppDependencies,
  runtime: StoreRuntime,
): CanvasListActions {
  const { database, api } = dependencies;

  const refreshList = () => refreshCanvasList(set, database);

  // Nested (create → open) switches count once; `opening` clears when the outermost one ends.
  let openingDepth = 0;
  async function whileOpening<T>(work: () => Promise<T>): Promise<T> {
    openingDepth += 1;
    set({ opening: true });
    try {
      return await work();
    } finally {
      openingDepth -= 1;
      if (openingDepth === 0) set({ opening: false });
    }
  }

  /** The file's log is kept as it came (nothing is repaired); an `import` event at its end records the break. */
  function withImportRecord(document: CanvasDocument, brokenAt: number): CanvasDocument {
    const event = appendEvent(
      document.events,
      {
        op: 'import',
        objectId: document.canvas.id,
        meta: { chainBrokenAtEvent: brokenAt + 1, eventsInFile: document.events.length },
      },
      { now: dependencies.now(), newId: dependencies.newId },
    );
    return { ...document, events: [...document.events, event] };
  }

  /** Stores a new canvas's whole document locally and as a new durable record. */
  async function storeDocument(document: CanvasDocument): Promise<void> {
    runtime.deletedCanvasIds.delete(document.canvas.id);
    await writeCanvasChanges(database, null, recordsFromDocument(document), dependencies.now());
    try {
      const saved = await api.putCanvas(document, { baseRevision: null });
      // Just written whole, nothing since: the rows are exactly the new record.
      await markRevisionExact(database, document.canvas.id, saved.revision);
    } catch (error) {
      const { code, message } = describeError(error);
      get().toast('error', code, `Saved in this browser, but not yet on disk: ${message}`);
    }
  }

  /** IndexedDB empty: restore every durable canvas record the server keeps. */
  async function restoreFromServer(): Promise<number> {
    let restored = 0;
    const summaries = await api.listCanvases();
    for (const summary of summaries) {
      try {
        const { document, revision } = await api.readCanvas(summary.id);
        await writeCanvasChanges(database, null, recordsFromDocument(document), summary.updatedAt, revision);
        restored += 1;
      } catch (error) {
        const { code, message } = describeError(error);
        get().toast('error', code, `Canvas "${summary.name}" could not be restored: ${message}`);
      }
    }
    return restored;
  }

  const actions: CanvasListActions = {
    async initialise() {
      mark('weft:initialise');
      try {
        let count = await database.canvases.count();
        if (count === 0)
          count = await restoreFromServer().catch((error) => {
            const { code, message } = describeError(error);
            get().toast('error', code, `Could not read the saved canvases: ${message}`);
            return 0;
          });
        if (count === 0) {
          const demo = demoCanvas(dependencies.now(), dependencies.newId);
          await storeDocument(demo);
        }
        await refreshList();
        const remembered = (await database.settings.get(ACTIVE_KEY))?.value;
        const cached = get().canvases.find((canvas) => canvas.id === remembered);
        // A canvas opened from the server is cached in slices after its first paint; left before that ended, it is
        // not in the list yet: open it from the server again rather than another one (the newest cached if it is gone).
        if (typeof remembered === 'string' && !cached) {
          const reopened = await actions.openCanvas(remembered).then(
            () => true,
            () => false,
          );
          if (reopened) return;
        }
        const target = cached ?? get().canvases[0];
        if (target) await actions.openCanvas(target.id);
      } finally {
        set({ ready: true });
      }
    },

    openCanvas: (id) =>
      whileOpening(async () => {
        await runtime.writer.flush();
        // Read before and after the rows: the rows loaded are that record only if no write came in between.
        const exactBefore = await exactRevision(database, id);
        let document = await loadCanvasDocument(database, id);
        // Not cached: painted from what the server sent, then checked and cached in slices (`writer.fill`).
        let fromServer: { revision: string; check?: () => Promise<void> } | null = null;
        if (!document) {
          const remote = await api.readCanvas(id, { checkLater: true });
          document = remote.document;
          fromServer = remote;
        }
        const revision = fromServer ? fromServer.revision : await storedRevision(database, id);
        // Rows exactly the record at that revision: the first save sends only what changed (409 if it moved on).
        if (!fromServer && exactBefore !== null && exactBefore === (await exactRevision(database, id)))
          api.rememberSaved(exactBefore, document);
        if (revision) runtime.revisions.set(id, revision);
        else runtime.revisions.delete(id);
        mark('weft:canvas-read');
        const graph = graphFromDocument(shareRepeatedStrings(document));
        runtime.journal.reset(id);
        // Steps a closed or reloaded page left unsaved: on top of what was loaded, and sent first (below).
        const pending = await takeOverPending(dependencies, runtime, graph);
        runtime.tracker = null;
        if (fromServer) {
          const ready = fromServer.check ? fromServer.check() : Promise.resolve();
          ready.catch((error: unknown) => {
            const { code, message } = describeError(error);
            get().toast('error', code, `${message} It is shown as sent but not kept in this browser.`);
          });
          void runtime.writer.fill(recordsFromGraph(graph), { ready, revision });
        } else runtime.writer.adopt(recordsFromGraph(graph));
        const shown = pending?.graph ?? graph;
        publishOpenedGraph(set, get, runtime, shown);
        mark('weft:canvas-published');
        set({ activeCanvasId: id, focusedNodeId: null, selectedNodeIds: [], highlightedNodeId: null });
        if (pending) {
          if (pending.unapplied) set({ unapplied: pending.unapplied });
          // The save names the revision the rows were based on; a 409 replays the journal onto the newer record.
          runtime.writer.schedule(recordsFromGraph(shown), runtime.journal.current());
          void runtime.writer.flushDurable(false);
        }
        await database.settings.put({ key: ACTIVE_KEY, value: id });
        applyKeptAgentAnswers(get());
      }),

    createCanvas: (name) =>
      whileOpening(async () => {
        const document = emptyCanvasDocument({
          id: dependencies.newId(),
          name: name.trim() || 'Untitled canvas',
          workingDirectory: null,
          createdAt: dependencies.now(),
        });
        await storeDocument(document);
        await refreshList();
        await actions.openCanvas(document.canvas.id);
        return document.canvas.id;
      }),

    renameCanvas(name) {
      const trimmed = name.trim();
      if (!trimmed || !get().apply({ type: 'rename-canvas', name: trimmed })) return;
      set((state) => ({
        canvases: state.canvases.map((canvas) =>
          canvas.id === state.activeCanvasId ? { ...canvas, name: trimmed } : canvas,
        ),
      }));
    },

    duplicateCanvas: () =>
      whileOpening(async () => {
        const graph = get().graph;
        if (!graph) return null;
        const source = documentFromGraph(graph);
        const copy: CanvasDocument = {
          ...source,
          canvas: {
            ...source.canvas,
            id: dependencies.newId(),
            name: `${source.canvas.name} (copy)`,
            createdAt: dependencies.now(),
          },
        };
        await storeDocument(copy);
        await refreshList();
        await actions.openCanvas(copy.canvas.id);
        return copy.canvas.id;
      }),

    async deleteCanvas(id) {
      if (get().activeCanvasId === id) await runtime.writer.flush();
      runtime.deletedCanvasIds.add(id);
      await deleteCanvasRows(database, id);
      try {
        await api.deleteCanvas(id);
      } catch (error) {
        const { code, message } = describeError(error);
        if (code !== 'not-found') get().toast('error', code, message);
      }
      await refreshList();
      if (get().activeCanvasId === id) {
        const next = get().canvases[0];
        if (next) await actions.openCanvas(next.id);
        else await actions.createCanvas('Untitled canvas');
      }
    },

    async importDocument(raw) {
      // Core migrates, validates and checks integrity; a newer or damaged file is refused whole.
      const loaded = loadCanvas(raw);
      if (!loaded.ok) {
        get().toast('error', loaded.error.code, `Import refused: ${loaded.error.message}`);
        return null;
      }
      let document: CanvasDocument = loaded.value.document;
      // An id already in use would overwrite that canvas: give the import its own id instead.
      if (await database.canvases.get(document.canvas.id)) {
        document = { ...document, canvas: { ...document.canvas, id: dependencies.newId() } };
      }
      const broken = loaded.value.brokenEventAt;
      if (broken !== null) document = withImportRecord(document, broken);
      await storeDocument(document);
      await refreshList();
      await actions.openCanvas(document.canvas.id);
      if (broken === null) get().toast('info', 'imported', `Imported "${document.canvas.name}".`);
      else
        get().toast(
          'error',
          'imported-broken-chain',
          `Imported "${document.canvas.name}", but its event log was already broken at event ${broken + 1} of ${
            document.events.length - 1
          }: it was altered, cut or reordered before it reached this Weft. An "import" event records that.`,
        );
      return document.canvas.id;
    },

    exportDocument() {
      const graph = get().graph;
      return graph ? documentFromGraph(graph) : null;
    },

    async flush(keepalive = false) {
      await runtime.writer.flush(keepalive);
      await refreshList();
    },
  };
  return actions;
}
