import type { Session, Turn, CanvasNode, MirrorLedger, MirrorNode } from '../../../protocol/index.ts';
import type { GraphChange, Position } from '../changes.ts';
import { incomingWires, outgoingWires, type Graph } from '../graph.ts';
import { isLive } from '../live.ts';
import { below, beside, MIRROR_NOTE_GAP, MIRROR_ROW_GAP } from './mirror-layout.ts';
import { isMirrorEdited, mirrorSourceFromTurn, sameSource } from './mirror-source.ts';

export interface MirrorPlanOptions {
  /** Time and ids are parameters: the plan is deterministic for the same inputs. */
  now: number;
  newId: () => string;
  /** Where the first turn goes when the session is not on the canvas yet. */
  origin: Position;
  /** Sets the ledger's `following` flag (kept as it was when absent). */
  following?: boolean;
}

export interface MirrorPlanCounts {
  turns: number;
  subagentTurns: number;
  notes: number;
  /** Unedited nodes of a turn that grew since it was mirrored (a live session's last turn). */
  refreshed: number;
  /** Turns the person put aside (`Turn.putAside`): left off the canvas, and not in the ledger (a restore lets them on). */
  putAside: number;
}

export interface MirrorPlan {
  /** Apply as one `batch` so the mirror is one undo step. Empty when nothing is new. */
  changes: GraphChange[];
  ledger: MirrorLedger;
  counts: MirrorPlanCounts;
  /** The main session's turn key → node id, including turns mirrored earlier. */
  nodeIdByTurnKey: Record<string, string>;
}

/** The ledger key of a compaction note: not a turn key, but idempotent the same way. */
export function compactionKey(sessionId: string, beforeTurnNumber: number): string {
  return `compaction:${sessionId}#${beforeTurnNumber}`;
}

/**
 * C20: plans how a session (with its subagent runs) lands on a canvas. One mirror node per user turn,
 * solid-wired in order; a subagent run as a wired branch beside the turn that delegated it; compaction
 * boundaries as notes. The ledger makes it idempotent: turns already in it are never added again, nodes
 * are never moved, and a node the person edited is never touched. Pure: time and ids are parameters.
 */
export function planMirror(
  graph: Graph,
  sessions: readonly Session[],
  ledger: MirrorLedger | null,
  options: MirrorPlanOptions,
): MirrorPlan {
  const main = sessions.find((session) => !session.isSubagent) ?? sessions[0];
  if (!main) throw new RangeError('planMirror needs at least one session');
  const nodeIdByTurnKey: Record<string, string> = { ...(ledger?.nodeIdByTurnKey ?? {}) };
  const turnKeys = [...(ledger?.turnKeys ?? [])];
  const known = new Set(turnKeys);
  const changes: GraphChange[] = [];
  const counts: MirrorPlanCounts = { turns: 0, subagentTurns: 0, notes: 0, refreshed: 0, putAside: 0 };
  const placed = new Map<string, Position>();

  const nodeOf = (key: string): CanvasNode | undefined => {
    const id = nodeIdByTurnKey[key];
    return id === undefined ? undefined : graph.nodes.get(id);
  };
  const positionOf = (key: string): Position | undefined => {
    const id = nodeIdByTurnKey[key];
    if (id === undefined) return undefined;
    return placed.get(id) ?? graph.nodes.get(id)?.position;
  };
  /** The lowest point of everything this session's ledger put on the canvas so far. */
  const lowest = (): number | null => {
    let bottom: number | null = null;
    for (const id of Object.values(nodeIdByTurnKey)) {
      const position = placed.get(id) ?? graph.nodes.get(id)?.position;
      if (position && (bottom === null || position.y > bottom)) bottom = position.y;
    }
    return bottom;
  };
  const remember = (key: string, id: string, position: Position) => {
    nodeIdByTurnKey[key] = id;
    turnKeys.push(key);
    known.add(key);
    placed.set(id, position);
  };
  const addWire = (from: string | undefined, to: string) => {
    if (from !== undefined && (graph.nodes.has(from) || placed.has(from)))
      changes.push({ type: 'wire', id: options.newId(), from, to, kind: 'solid' });
  };

  const sessionsById = new Map(sessions.map((session) => [session.sessionId, session] as const));
  const branchesOf = (turn: Turn): Session[] => {
    const found = new Map<string, Session>();
    for (const id of turn.subagentSessionIds) {
      const session = sessionsById.get(id);
      if (session && session !== main) found.set(id, session);
    }
    for (const session of sessions)
      if (session.parentTurnKey === turn.key && session !== main) found.set(session.sessionId, session);
    return [...found.values()];
  };

  const refreshIfGrown = (session: Session) => {
    const last = [...session.turns].reverse().find((turn) => known.has(turn.key));
    if (!last) return;
    const node = nodeOf(last.key);
    // Archiving is the person's decision too: replacing the node would bring it back.
    if (!node || !isLive(node) || node.kind !== 'mirror' || isMirrorEdited(node)) return;
    const source = mirrorSourceFromTurn(session, last);
    if (sameSource(node.source, source)) return;
    changes.push(...replaceMirrorNode(graph, node, source));
    counts.refreshed += 1;
  };

  /** Lowest y placed so far per column x, so branches of consecutive turns do not overlap. */
  const columnBottom = new Map<number, number>();
  const place = (position: Position): Position => {
    columnBottom.set(position.x, Math.max(columnBottom.get(position.x) ?? position.y, position.y));
    return position;
  };

  /** Mirrors one session's new turns down a column; `start` is where its first new item goes. */
  const mirrorSession = (session: Session, start: () => Position, previousKey: string | undefined, depth: number) => {
    refreshIfGrown(session);
    let previous = previousKey === undefined ? undefined : nodeIdByTurnKey[previousKey];
    const compactions = new Map(
      session.compactions.map((compaction) => [compaction.beforeTurnNumber, compaction] as const),
    );
    let next: Position | null = null;
    const nextPosition = (gap: number): Position => {
      const position = place(next ?? start());
      next = below(position, gap);
      return position;
    };
    for (const turn of session.turns) {
      if (known.has(turn.key)) {
        if (nodeOf(turn.key)) previous = nodeIdByTurnKey[turn.key];
        continue;
      }
      if (turn.putAside) {
        counts.putAside += 1;
        continue;
      }
      const compaction = compactions.get(turn.number);
      const noteKey = compactionKey(session.sessionId, turn.number);
      if ((compaction || turn.afterCompaction) && !known.has(noteKey)) {
        const id = options.newId();
        const position = nextPosition(MIRROR_NOTE_GAP);
        const summary = compaction?.summary.trim() ?? '';
        const text = `**Context compacted** before turn ${turn.number} of this ${session.isSubagent ? 'subagent run' : 'session'}.${summary ? `\n\n${summary}` : ''}`;
        changes.push({ type: 'add-node', node: { kind: 'note', id, text, position, author: 'app' } });
        remember(noteKey, id, position);
        counts.notes += 1;
      }
      const id = options.newId();
      const position = nextPosition(MIRROR_ROW_GAP);
      changes.push({
        type: 'add-node',
        node: { kind: 'mirror', id, source: mirrorSourceFromTurn(session, turn), position },
      });
      addWire(previous, id);
      remember(turn.key, id, position);
      previous = id;
      if (session === main) counts.turns += 1;
      else counts.subagentTurns += 1;
    }
    // Branches after the column, so a run that grew is planned even when its delegating turn is old.
    if (depth >= 8) return;
    for (const turn of session.turns) {
      branchesOf(turn).forEach((branch, index) => {
        const branchStart = (): Position => {
          const known = [...branch.turns].reverse().find((item) => positionOf(item.key) !== undefined);
          if (known) return below(positionOf(known.key)!, MIRROR_ROW_GAP);
          const anchor = beside(positionOf(turn.key) ?? options.origin, index + 1);
          const bottom = columnBottom.get(anchor.x);
          return bottom === undefined ? anchor : { x: anchor.x, y: Math.max(anchor.y, bottom + MIRROR_ROW_GAP) };
        };
        mirrorSession(branch, branchStart, turn.key, depth + 1);
      });
    }
  };

  mirrorSession(
    main,
    () => {
      const bottom = lowest();
      const last = [...main.turns].reverse().find((turn) => positionOf(turn.key) !== undefined);
      const x = last ? positionOf(last.key)!.x : options.origin.x;
      return bottom === null ? { ...options.origin } : { x, y: bottom + MIRROR_ROW_GAP };
    },
    undefined,
    0,
  );

  const nextLedger: MirrorLedger = {
    runner: main.runner,
    sessionId: main.sessionId,
    sourcePath: main.sourcePath,
    turnKeys,
    nodeIdByTurnKey,
    following: options.following ?? ledger?.following ?? false,
  };
  const ledgerChanged =
    ledger === null ||
    changes.length > 0 ||
    nextLedger.following !== ledger.following ||
    nextLedger.sourcePath !== ledger.sourcePath;
  if (changes.length > 0) {
    changes.push({
      type: 'record',
      event: {
        op: 'mirror',
        objectId: main.sessionId,
        meta: {
          runner: main.runner,
          turns: counts.turns,
          subagentTurns: counts.subagentTurns,
          notes: counts.notes,
          refreshed: counts.refreshed,
        },
      },
    });
  }
  if (ledgerChanged) changes.push({ type: 'set-ledger', ledger: nextLedger });
  return { changes, ledger: nextLedger, counts, nodeIdByTurnKey };
}

/**
 * A turn that grew after it was mirrored (the live session's last turn): its unedited node is replaced in
 * place — same id, position, size and wires — with the longer snapshot.
 */
function replaceMirrorNode(graph: Graph, node: MirrorNode, source: MirrorNode['source']): GraphChange[] {
  const wires = [...incomingWires(graph, node.id), ...outgoingWires(graph, node.id)]
    .map((id) => graph.wires.get(id))
    .filter((wire) => wire !== undefined);
  const changes: GraphChange[] = [
    { type: 'delete-node', nodeId: node.id },
    {
      type: 'add-node',
      node: {
        kind: 'mirror',
        id: node.id,
        source,
        position: node.position,
        size: node.size,
        includeExecution: node.includeExecution,
      },
    },
  ];
  for (const wire of wires) {
    changes.push(
      wire.kind === 'solid'
        ? { type: 'wire', id: wire.id, from: wire.from, to: wire.to, kind: 'solid' }
        : { type: 'wire', id: wire.id, from: wire.from, to: wire.to, kind: 'dashed', depth: wire.depth },
    );
  }
  return changes;
}
