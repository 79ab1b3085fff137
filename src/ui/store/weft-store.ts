import { createStore, type StoreApi } from 'zustand/vanilla';
import { OFFLINE_RECEIPT_MODEL_ID } from '../../../protocol/index.ts';
import { describeError } from '../api/index.ts';
import { rememberRevision, CanvasWriter } from '../db/index.ts';
import { ChangeJournal } from './change-journal.ts';
import { createDurableSave } from './durable-save.ts';
import type { AppDependencies } from './app-dependencies.ts';
import { createAuthoringActions } from './authoring-actions.ts';
import { createCanvasListActions } from './canvas-list-actions.ts';
import { createDispatchActions } from './dispatch-actions.ts';
import { createGraphActions } from './graph-actions.ts';
import { createPlaqueActions } from './plaque-actions.ts';
import { createRemoteSyncActions } from './remote-sync-actions.ts';
import type { StoreRuntime } from './store-runtime.ts';
import { judgePendingRubrics } from './rubric-after-ask.ts';
import { createStaleJudge } from './stale-judge.ts';
import { isWorkspaceView, type WeftState } from './weft-state.ts';
import { environmentKeysDetachedMessage, keysClearedMessage } from './key-origin-notice.ts';
import { nodeSearchText } from './node-labels.ts';

export type WeftStore = StoreApi<WeftState> & { runtime: StoreRuntime; api: AppDependencies['api'] };

const TOAST_LIMIT = 4;

export function createWeftStore(given: AppDependencies): WeftStore {
  let toastCounter = 0;
  const revisions = new Map<string, string>();
  // Every durable save notes the record's new revision: the next save is based on it, and its echo is known.
  const dependencies: AppDependencies = {
    ...given,
    api: {
      ...given.api,
      async putCanvas(document, options) {
        const saved = await given.api.putCanvas(document, options);
        revisions.set(document.canvas.id, saved.revision);
        await rememberRevision(given.database, document.canvas.id, saved.revision);
        return saved;
      },
    },
  };
  const owner = dependencies.newId();
  dependencies.pageLocks?.hold(owner);
  const runtime: StoreRuntime = {
    owner,
    tracker: null,
    aborts: new Map(),
    replayStopped: false,
    deletedCanvasIds: new Set(),
    revisions,
    journal: new ChangeJournal(),
    judgeNewlyStale: (previousShown) => judge(previousShown),
    pendingJudgement: Promise.resolve(),
    judgeRubrics: (nodeIds) =>
      judgePendingRubrics(store.setState, () => store.getState(), dependencies, runtime, nodeIds),
    rubricsClaimed: new Set(),
    rubricsJudged: Promise.resolve(),
    writer: new CanvasWriter({
      database: dependencies.database,
      putDurable: (document, options) => saveDurable(document, options),
      now: dependencies.now,
      owner,
      onError: (error) => {
        const { code, message } = describeError(error);
        store.getState().toast('error', code, `Could not save: ${message}`);
      },
      ...(dependencies.localDelayMs !== undefined ? { localDelayMs: dependencies.localDelayMs } : {}),
      ...(dependencies.durableDelayMs !== undefined ? { durableDelayMs: dependencies.durableDelayMs } : {}),
    }),
  };

  const saveDurable = createDurableSave(
    (partial) => store.setState(partial),
    () => store.getState(),
    dependencies,
    runtime,
  );
  const judge = createStaleJudge(
    () => store.getState(),
    dependencies,
    () => runtime.settingsRead,
  );
  const store = createStore<WeftState>()((set, get) => ({
    ready: false,
    opening: false,
    canvases: [],
    activeCanvasId: null,
    graph: null,
    shown: new Set(),
    stale: new Set(),
    questionEdited: new Set(),
    fingerprints: new Map(),
    past: [],
    future: [],
    view: 'canvas',
    workspaceView: 'canvas',
    focusedNodeId: null,
    selectedNodeIds: [],
    searchOpen: false,
    searchQuery: '',
    searchHits: new Set(),
    previewOpen: true,
    highlightedNodeId: null,
    toasts: [],
    unapplied: null,
    models: [],
    defaultModelId: OFFLINE_RECEIPT_MODEL_ID,
    settings: null,
    streams: {},
    replay: null,
    replayDialogOpen: false,

    ...createGraphActions(set, get, dependencies, runtime),
    ...createCanvasListActions(set, get, dependencies, runtime),
    ...createDispatchActions(set, get, dependencies, runtime),
    ...createRemoteSyncActions(set, get, dependencies, runtime),
    ...createAuthoringActions(set, get, dependencies),
    ...createPlaqueActions(set, get, dependencies, runtime),

    setView: (view) => set(isWorkspaceView(view) ? { view, workspaceView: view } : { view }),
    closeView: (view) => {
      if (get().view === view) set({ view: get().workspaceView });
    },
    focusNode: (nodeId) => set({ focusedNodeId: nodeId, highlightedNodeId: null }),
    setSelection: (nodeIds) => set({ selectedNodeIds: nodeIds }),
    setSearch(open, query) {
      const searchQuery = query ?? (open ? get().searchQuery : '');
      const needle = searchQuery.trim().toLowerCase();
      const searchHits = new Set<string>();
      if (open && needle.length > 0) {
        for (const node of get().graph?.nodes.values() ?? [])
          if (nodeSearchText(node).includes(needle)) searchHits.add(node.id);
      }
      set({ searchOpen: open, searchQuery, searchHits });
    },
    togglePreview: () => set((state) => ({ previewOpen: !state.previewOpen })),
    highlightNode: (nodeId) => set({ highlightedNodeId: nodeId }),
    toast(kind, code, message, action) {
      toastCounter += 1;
      const id = `toast-${toastCounter}`;
      set((state) => ({
        toasts: [...state.toasts, { id, kind, code, message, ...(action ? { action } : {}) }].slice(-TOAST_LIMIT),
      }));
      // A toast with a button stays a little longer, so there is time to press it.
      if (typeof window !== 'undefined')
        window.setTimeout(() => get().dismissToast(id), kind === 'error' ? 9000 : action ? 8000 : 4000);
    },
    dismissUnapplied: () => set({ unapplied: null }),
    dismissToast: (id) => set((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) })),

    loadModels: () => (runtime.modelsRead = loadModels()),
    loadSettings: () => (runtime.settingsRead = loadSettings()),
    async saveSettings(update) {
      try {
        const settings = await dependencies.api.saveSettings(update);
        set((state) => ({ settings, defaultModelId: settings.defaultModelId ?? state.defaultModelId }));
        const cleared = settings.keysCleared ?? [];
        if (cleared.length > 0) get().toast('info', 'keys-cleared', keysClearedMessage(cleared));
        const detached = settings.environmentKeysDetached ?? [];
        if (detached.length > 0)
          get().toast('info', 'environment-keys-detached', environmentKeysDetachedMessage(detached));
        await get().loadModels();
        return true;
      } catch (error) {
        const { code, message } = describeError(error);
        get().toast('error', code, `Settings not saved: ${message}`);
        return false;
      }
    },
  }));
  async function loadModels() {
    try {
      const response = await dependencies.api.models();
      const defaultModelId = store.getState().settings?.defaultModelId ?? response.defaultModelId;
      store.setState({ models: response.models, defaultModelId });
    } catch (error) {
      const { code, message } = describeError(error);
      store.getState().toast('error', code, `Could not list models: ${message}`);
    }
  }
  async function loadSettings() {
    try {
      const settings = await dependencies.api.settings();
      store.setState((state) => ({ settings, defaultModelId: settings.defaultModelId ?? state.defaultModelId }));
    } catch (error) {
      const { code, message } = describeError(error);
      store.getState().toast('error', code, `Could not read settings: ${message}`);
    }
  }

  return Object.assign(store, { runtime, api: dependencies.api });
}
