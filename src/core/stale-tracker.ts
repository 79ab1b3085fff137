import type { Graph } from './graph.ts';

/** The stale set and the fingerprint each answered node has now. */
export interface StaleState {
  stale: ReadonlySet<string>;
  /** Current upstream fingerprint of every live question node with a current complete version. */
  fingerprints: ReadonlyMap<string, string>;
}

/** Recomputes staleness for every node (the reference the incremental tracker must equal). */
export function computeStaleFull(graph: Graph): StaleState {
  void graph;
  throw new Error('computeStaleFull: in progress');
}

/** Incremental staleness (C6): after a change only descendants of the touched nodes are re-checked. */
export class StaleTracker implements StaleState {
  private current: Graph;
  private readonly staleIds = new Set<string>();
  private readonly fingerprintById = new Map<string, string>();

  constructor(graph: Graph) {
    this.current = graph;
  }

  get graph(): Graph {
    return this.current;
  }

  get stale(): ReadonlySet<string> {
    return this.staleIds;
  }

  get fingerprints(): ReadonlyMap<string, string> {
    return this.fingerprintById;
  }

  /** Moves to `graph`; `touched` from `ApplyOutcome` (when omitted, found by comparing graphs). */
  update(graph: Graph, touched?: Iterable<string>): ReadonlySet<string> {
    void graph;
    void touched;
    throw new Error('StaleTracker.update: in progress');
  }
}
