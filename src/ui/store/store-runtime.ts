import type { Graph, StaleTracker } from '../../core/index.ts';
import type { CanvasRecords, CanvasWriter } from '../db/index.ts';
import type { ChangeJournal } from './change-journal.ts';

/** Mutable helpers the store owns but never renders: the stale tracker, writer, abort handles. */
export interface StoreRuntime {
  tracker: StaleTracker | null;
  writer: CanvasWriter;
  aborts: Map<string, AbortController>;
  replayStopped: boolean;
  /** Canvases deleted here: a late `canvas-changed` for one must not bring it back. */
  deletedCanvasIds: Set<string>;
  /**
   * The durable revision this page's copy of each canvas is based on: its saves name it (409 when stale), and a
   * `canvas-changed` carrying it is this page's own save coming back.
   */
  revisions: Map<string, string>;
  /** The open canvas's steps not yet in its durable record, replayed onto a newer one on a 409. */
  journal: ChangeJournal;
  /** This page, as the owner of the pending steps it keeps in IndexedDB (`PendingRow.owner`). */
  owner: string;
  /** C7: asks the judge about answers that just became stale (no-op without a judge model). */
  judgeNewlyStale: (previousShown: ReadonlySet<string>) => Promise<void>;
  /** The latest judge round, so tests and flushes can wait for it. */
  pendingJudgement: Promise<void>;
  /** Issue 31: scans a published graph for versions whose rubrics are not judged yet (`judgePendingRubrics`). */
  judgeRubrics: (nodeIds?: Iterable<string>) => void;
  /** Rubric judgements this page has taken on (version id : check id : rubric): each is asked once. */
  rubricsClaimed: Set<string>;
  /** The queue of rubric judgements (one at a time), so tests and flushes can wait for it. */
  rubricsJudged: Promise<void>;
  /** A large canvas just opened whose staleness is not worked out yet: works it out now (`publishOpenedGraph`). */
  settleStaleness?: (() => void) | null;
  /**
   * The settings and model list as first read: the boot reads them beside the open canvas, not before it, so what
   * depends on them (the stale judge, a run's model) waits for these instead. Resolved when never read (tests).
   */
  settingsRead?: Promise<void>;
  modelsRead?: Promise<void>;
}

/** Records share node objects with the graph, so the writer's identity diff finds changed rows. */
export function recordsFromGraph(graph: Graph): CanvasRecords {
  return {
    canvas: graph.canvas,
    nodes: [...graph.nodes.values()],
    wires: [...graph.wires.values()],
    attachments: [...graph.attachments.values()],
    dismissals: graph.dismissals,
    ledgers: graph.ledgers,
    events: graph.events,
  };
}
