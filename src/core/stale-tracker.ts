import { fingerprintSession, upstreamFingerprint, type FingerprintSession } from './fingerprint.ts';
import { jsHashPort, type HashPort } from './hash-port.ts';
import { nodesUsingAttachments, type Graph } from './graph.ts';
import { isLive } from './live.ts';
import { currentAnswer } from './node-text.ts';
import { descendants } from './walk.ts';

/** The stale set, why each member is stale, and the fingerprint each answered node has now. */
export interface StaleState {
  /** Upstream drifted or own question edited (C6), before any judge dismissal. */
  stale: ReadonlySet<string>;
  /**
   * The members of `stale` whose node's question differs from the question its current answer
   * answered. A person's own edit: no judge dismissal applies to these (see `shownStale`).
   */
  questionEdited: ReadonlySet<string>;
  /** Current upstream fingerprint of every live question node with a current complete answer. */
  fingerprints: ReadonlyMap<string, string>;
}

interface MutableStaleState {
  stale: Set<string>;
  questionEdited: Set<string>;
  fingerprints: Map<string, string>;
}

/** Re-checks one node: a live question with a current complete answer can be stale. */
function check(graph: Graph, id: string, session: FingerprintSession, into: MutableStaleState): void {
  const node = graph.nodes.get(id);
  if (!node || !isLive(node) || node.kind !== 'question') return;
  const answer = currentAnswer(node);
  if (!answer) return;
  const current = upstreamFingerprint(graph, id, session);
  into.fingerprints.set(id, current);
  const edited = answer.question !== node.question;
  if (edited) into.questionEdited.add(id);
  if (edited || current !== answer.upstreamFingerprint) into.stale.add(id);
}

/** Recomputes staleness for every node: the reference the incremental tracker must equal. */
export function computeStaleFull(graph: Graph, hash: HashPort = jsHashPort): StaleState {
  const state: MutableStaleState = { stale: new Set(), questionEdited: new Set(), fingerprints: new Map() };
  const session = fingerprintSession(hash);
  for (const id of graph.nodes.keys()) check(graph, id, session, state);
  return state;
}

/**
 * The same full check `size` nodes at a time: it yields after each step, so a caller can give the page turns between
 * them (a large canvas just opened), and returns the tracker at the end.
 */
export function* staleTrackerInSteps(
  graph: Graph,
  size: number,
  hash: HashPort = jsHashPort,
): Generator<void, StaleTracker, void> {
  const state: MutableStaleState = { stale: new Set(), questionEdited: new Set(), fingerprints: new Map() };
  const session = fingerprintSession(hash);
  let count = 0;
  for (const id of graph.nodes.keys()) {
    check(graph, id, session, state);
    count += 1;
    if (count % size === 0) yield;
  }
  return new StaleTracker(graph, hash, state);
}

/**
 * Incremental staleness (C6). A node's fingerprint reads only nodes upstream of it (over any
 * wire) and its question-edited test reads only the node itself, so after a change only the
 * touched nodes and their descendants — in the old graph and the new one — are re-checked;
 * everything else keeps its cached result.
 */
export class StaleTracker implements StaleState {
  private current: Graph;
  private readonly state: MutableStaleState;

  /** `computed`: the full check of `graph` already done (`staleTrackerInSteps`). */
  constructor(
    graph: Graph,
    private readonly hash: HashPort = jsHashPort,
    computed?: StaleState,
  ) {
    this.current = graph;
    this.state = (computed ?? computeStaleFull(graph, hash)) as MutableStaleState;
  }

  get graph(): Graph {
    return this.current;
  }

  get stale(): ReadonlySet<string> {
    return this.state.stale;
  }

  get questionEdited(): ReadonlySet<string> {
    return this.state.questionEdited;
  }

  get fingerprints(): ReadonlyMap<string, string> {
    return this.state.fingerprints;
  }

  /**
   * Moves to `graph`. Pass `touched` from `ApplyOutcome` (for a batch of changes, their union);
   * when omitted it is found by comparing the two graphs. Returns the ids re-checked.
   */
  update(graph: Graph, touched?: Iterable<string>): Set<string> {
    const previous = this.current;
    const seeds = new Set(touched ?? touchedBetween(previous, graph));
    const affected = new Set<string>(seeds);
    for (const id of descendants(
      previous,
      [...seeds].filter((id) => previous.nodes.has(id)),
    ))
      affected.add(id);
    for (const id of descendants(
      graph,
      [...seeds].filter((id) => graph.nodes.has(id)),
    ))
      affected.add(id);
    const session = fingerprintSession(this.hash);
    for (const id of affected) {
      this.state.stale.delete(id);
      this.state.questionEdited.delete(id);
      this.state.fingerprints.delete(id);
      if (graph.nodes.has(id)) check(graph, id, session, this.state);
    }
    this.current = graph;
    return affected;
  }
}

/**
 * Nodes whose compiled context or own answer may differ between two graphs, found by object
 * identity (graphs share unchanged objects): changed, added or removed nodes, the targets of
 * changed wires, and nodes carrying an attachment whose record changed.
 */
export function touchedBetween(before: Graph, after: Graph): Set<string> {
  const touched = new Set<string>();
  for (const [id, node] of after.nodes) if (before.nodes.get(id) !== node) touched.add(id);
  for (const id of before.nodes.keys()) if (!after.nodes.has(id)) touched.add(id);
  if (before.wires !== after.wires) {
    for (const [id, wire] of after.wires) if (before.wires.get(id) !== wire) touched.add(wire.to);
    for (const [id, wire] of before.wires) if (after.wires.get(id) !== wire) touched.add(wire.to);
  }
  if (before.attachments !== after.attachments) {
    const changed = new Set<string>();
    for (const [hash, record] of after.attachments) if (before.attachments.get(hash) !== record) changed.add(hash);
    for (const hash of before.attachments.keys()) if (!after.attachments.has(hash)) changed.add(hash);
    for (const id of nodesUsingAttachments(after, changed)) touched.add(id);
  }
  return touched;
}
