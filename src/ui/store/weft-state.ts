import type { Graph, GraphChange } from '../../core/index.ts';
import type { AuthoringActions } from './authoring-types.ts';
import type { PlaqueActions } from './plaque-types.ts';
import type { UnappliedChanges } from './unapplied-changes.ts';
import type {
  CanvasSummary,
  ModelInfo,
  SettingsResponse,
  SettingsUpdate,
  CanvasDocument,
  DispatchLane,
} from '../../../protocol/index.ts';

/** What the main area shows under any page that covers it. */
export type WorkspaceView = 'canvas' | 'events' | 'results' | 'settings';
/** Every view a top-bar tab opens: a workspace view, or a page over the workspace (the Atlas, Why, Memory). */
export type View = WorkspaceView | 'atlas' | 'why' | 'memory';

export const isWorkspaceView = (view: View): view is WorkspaceView =>
  view === 'canvas' || view === 'events' || view === 'results' || view === 'settings';

export interface Toast {
  id: string;
  kind: 'error' | 'info';
  code: string;
  message: string;
  /** A button in the toast that runs a command (e.g. Undo after a delete). */
  /** `argument` names what the command acts on (e.g. which admission an Undo undoes). */
  action?: { label: string; command: string; argument?: string };
}

/** An answer being streamed into a node before it becomes a version. */
export interface LiveStream {
  text: string;
  requestHash: string;
  model: string;
  lane: DispatchLane;
}

/** What a running job is, so its progress chip can say so: a Replay, a model set's ask, or a re-run. */
export type ProgressJob = { kind: 'replay' } | { kind: 'set'; models: number } | { kind: 'rerun'; model: string };

export interface ReplayProgress {
  job: ProgressJob;
  total: number;
  done: number;
  currentNodeId: string | null;
  running: boolean;
}

export interface AskOptions {
  lane?: DispatchLane;
  /** Regenerate as a sibling branch of this version. */
  branchOf?: string | null;
}

export interface WeftState extends AuthoringActions, PlaqueActions {
  ready: boolean;
  /** A canvas is being created, copied or opened: edits wait, so none lands on the canvas being left. */
  opening: boolean;
  canvases: CanvasSummary[];
  activeCanvasId: string | null;
  graph: Graph | null;
  /** C7: the one set the badges, the preview, every request and Replay read. */
  shown: ReadonlySet<string>;
  /** Stale before dismissals, so a node can show "dismissed by judge". */
  stale: ReadonlySet<string>;
  /** Stale because the node's own question was edited after its answer (never dismissed by the judge). */
  questionEdited: ReadonlySet<string>;
  fingerprints: ReadonlyMap<string, string>;
  past: Graph[];
  future: Graph[];

  /** The one open view: the tabs, the pages over the workspace and the commands all read it, and only `setView` sets it. */
  view: View;
  /** The workspace view under a page (kept mounted, so closing the page returns to it); follows `view`. */
  workspaceView: WorkspaceView;
  focusedNodeId: string | null;
  selectedNodeIds: string[];
  searchOpen: boolean;
  searchQuery: string;
  searchHits: ReadonlySet<string>;
  previewOpen: boolean;
  highlightedNodeId: string | null;
  toasts: Toast[];
  /** Pending changes a replay onto a newer record could not apply, with what it kept: shown until dismissed. */
  unapplied: UnappliedChanges | null;

  models: ModelInfo[];
  defaultModelId: string;
  settings: SettingsResponse | null;

  streams: Record<string, LiveStream>;
  replay: ReplayProgress | null;
  replayDialogOpen: boolean;

  // graph
  apply(change: GraphChange): boolean;
  undo(): void;
  redo(): void;
  // canvases
  initialise(): Promise<void>;
  openCanvas(id: string): Promise<void>;
  createCanvas(name: string): Promise<string>;
  renameCanvas(name: string): void;
  duplicateCanvas(): Promise<string | null>;
  deleteCanvas(id: string): Promise<void>;
  importDocument(raw: unknown): Promise<string | null>;
  exportDocument(): CanvasDocument | null;
  flush(keepalive?: boolean): Promise<void>;
  /** `canvas-changed` from the server stream: refresh that canvas unless local edits are unsaved. True when it changed. */
  canvasChangedElsewhere(id: string, revision?: string): Promise<boolean>;
  /** `canvas-deleted` from the server stream: drop it here (never re-create it); the open one switches away. True when dropped. */
  canvasDeletedElsewhere(id: string): Promise<boolean>;
  // ui
  setView(view: View): void;
  /** Closes `view` if it is the open one: back to the workspace view under it. */
  closeView(view: View): void;
  focusNode(nodeId: string | null): void;
  setSelection(nodeIds: string[]): void;
  setSearch(open: boolean, query?: string): void;
  togglePreview(): void;
  highlightNode(nodeId: string | null): void;
  toast(kind: Toast['kind'], code: string, message: string, action?: Toast['action']): void;
  dismissToast(id: string): void;
  dismissUnapplied(): void;
  // models and settings
  loadModels(): Promise<void>;
  loadSettings(): Promise<void>;
  saveSettings(update: SettingsUpdate): Promise<boolean>;
  // dispatch
  ask(nodeId: string, options?: AskOptions): Promise<boolean>;
  /** Issue 31: asks the node's model set (every model, every sample) after its plan; the answers are versions. */
  askSet(nodeId: string): Promise<SetRunResult>;
  stop(nodeId: string): void;
  openReplayDialog(open: boolean): void;
  /** Runs the Replay wave, leaving out the nodes the person unticked in the dialog. */
  replayStale(skipped?: ReadonlySet<string>): Promise<void>;
  stopReplay(): void;
  /**
   * Issue 31: "Re-run under…": regenerates every question of `selection` with `model` into new versions tagged
   * `runName` (`rerunPlan`), upstream first, each compiled from the run's own upstream answers; the person's
   * selected versions never change. Shows in the Replay progress; Stop Replay stops it.
   */
  rerunUnder(selection: ReadonlySet<string>, model: string, runName: string): Promise<RerunResult | null>;
}

/** Issue 31: what one ask of a model set did: answers kept, answers failed, and the context hash they share. */
export interface SetRunResult {
  answers: number;
  failed: number;
  contextHash: string | null;
}

/** Issue 31: what a re-run did: answers kept, steps that failed, steps left out (stopped, or below a failure). */
export interface RerunResult {
  runName: string;
  completed: number;
  failed: number;
  skipped: number;
}

export type SetState = (partial: Partial<WeftState> | ((state: WeftState) => Partial<WeftState>)) => void;
export type GetState = () => WeftState;
