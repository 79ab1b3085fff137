import type { Runner, Session, MirrorLedger } from '../../../protocol/index.ts';
import { planMirror, type Graph, type MirrorPlan, plural } from '../../core/index.ts';
import { describeError } from '../api/index.ts';
import { canvasBridge } from '../commands/index.ts';
import { createIdGenerator, type WeftStore } from '../store/index.ts';
import { atlasApi } from './atlas-api.ts';
import { atlasStore } from './atlas-state.ts';
import { clip } from './format.ts';

const now = () => Date.now();
/** Timing marks (`weft-mirror:*`) the Atlas benchmark reads; cheap enough to keep. */
const mark = (name: string) => performance.mark(`weft-mirror:${name}`);
const newId = createIdGenerator(now);

export interface MirrorTarget {
  runner: Runner;
  sessionId: string;
}

export function ledgerFor(graph: Graph | null, target: MirrorTarget): MirrorLedger | null {
  return (
    graph?.ledgers.find((ledger) => ledger.runner === target.runner && ledger.sessionId === target.sessionId) ?? null
  );
}

/** Where a session's first turn goes on a canvas that already has nodes: to the right of everything. */
export function mirrorOrigin(graph: Graph): { x: number; y: number } {
  let right: number | null = null;
  let top: number | null = null;
  for (const node of graph.nodes.values()) {
    const width = node.size?.width ?? 300;
    right = right === null ? node.position.x + width : Math.max(right, node.position.x + width);
    top = top === null ? node.position.y : Math.min(top, node.position.y);
  }
  return right === null ? { x: 0, y: 0 } : { x: Math.round(right + 160), y: Math.round(top ?? 0) };
}

/**
 * Plans the session onto the open canvas from its ledger and applies the plan as one batch through the store
 * (so persistence, the event log and undo see an ordinary change). Returns the plan, or null when refused.
 */
export function applyMirror(
  store: WeftStore,
  sessions: Session[],
  options: { following?: boolean } = {},
): MirrorPlan | null {
  const graph = store.getState().graph;
  const main = sessions.find((session) => !session.isSubagent) ?? sessions[0];
  if (!graph || !main) return null;
  mark('planning');
  const plan = planMirror(graph, sessions, ledgerFor(graph, main), {
    now: now(),
    newId,
    origin: mirrorOrigin(graph),
    ...(options.following !== undefined ? { following: options.following } : {}),
  });
  if (plan.changes.length === 0) return plan;
  mark('planned');
  const applied = store.getState().apply({ type: 'batch', changes: plan.changes });
  mark('applied');
  return applied ? plan : null;
}

function showCanvas(store: WeftStore): void {
  store.getState().setView('canvas');
}

/** Selects and centres a node once the canvas has drawn it. */
export function revealNode(store: WeftStore, nodeId: string): void {
  store.getState().setSelection([nodeId]);
  store.getState().focusNode(nodeId);
  const tryCenter = (attempt: number) => {
    if (document.querySelector(`.react-flow__node[data-id="${CSS.escape(nodeId)}"]`) || attempt > 40)
      canvasBridge.centerOn(nodeId);
    else requestAnimationFrame(() => tryCenter(attempt + 1));
  };
  requestAnimationFrame(() => tryCenter(0));
}

/**
 * Mirrors a session (with its subagent runs) onto a new canvas named after it, or onto the open canvas.
 * Mirroring again appends only turns past the ledger.
 */
export async function mirrorSession(
  store: WeftStore,
  target: MirrorTarget,
  where: 'new' | 'current',
  options: { follow?: boolean; sessions?: Session[] } = {},
): Promise<MirrorPlan | null> {
  atlasStore.setState({ mirroring: target.sessionId });
  try {
    // The detail view already read the session; anything else reads it now.
    mark('start');
    const sessions = options.sessions ?? (await atlasApi.session(target.runner, target.sessionId)).sessions;
    mark('read');
    const main = sessions.find((session) => !session.isSubagent) ?? sessions[0];
    if (!main) return null;
    if (where === 'new') await store.getState().createCanvas(clip(main.title, 64) || `${main.runner} session`);
    mark('canvas');
    const ledgerBefore = ledgerFor(store.getState().graph, main);
    // The server watches first, so a ledger marked following always has a watcher behind it.
    if (options.follow !== undefined) await atlasApi.setFollowing(target.runner, target.sessionId, options.follow);
    const plan = applyMirror(store, sessions, options.follow !== undefined ? { following: options.follow } : {});
    // Lines written between reading the session and the watcher starting: one catch-up read.
    if (options.follow) void syncFollowed(store, target);
    showCanvas(store);
    if (plan) {
      const added = plan.counts.turns + plan.counts.subagentTurns;
      store
        .getState()
        .toast(
          'info',
          'mirrored',
          added > 0
            ? `Mirrored ${plural(added, 'turn')} of “${clip(main.title, 60)}”.`
            : 'Already on this canvas: no new turns.',
        );
      // A few turns: show them all. A long session: start at its first new turn at a readable zoom.
      const known = new Set(ledgerBefore?.turnKeys ?? []);
      const firstKey = plan.ledger.turnKeys.find((key) => !known.has(key));
      const firstNew = firstKey ? plan.nodeIdByTurnKey[firstKey] : undefined;
      if ((store.getState().graph?.nodes.size ?? 0) <= 300) requestAnimationFrame(() => canvasBridge.fitView());
      else if (added > 0 && firstNew) requestAnimationFrame(() => canvasBridge.centerOn(firstNew));
    }
    return plan;
  } catch (error) {
    const { code, message } = describeError(error);
    store.getState().toast('error', code, `Could not mirror the session: ${message}`);
    return null;
  } finally {
    atlasStore.setState({ mirroring: null });
  }
}

/** Turns following on or off for a session mirrored on the open canvas (ledger flag + the server's follow list). */
export async function setFollowing(store: WeftStore, target: MirrorTarget, following: boolean): Promise<void> {
  try {
    await atlasApi.setFollowing(target.runner, target.sessionId, following);
    const { sessions } = await atlasApi.session(target.runner, target.sessionId);
    applyMirror(store, sessions, { following });
  } catch (error) {
    const { code, message } = describeError(error);
    store.getState().toast('error', code, `Could not change following: ${message}`);
  }
}

const syncing = new Map<string, Promise<void>>();

/** Re-fetches a followed session and appends what is new, one sync at a time per session. */
export function syncFollowed(store: WeftStore, target: MirrorTarget): Promise<void> {
  const key = `${target.runner}\u0000${target.sessionId}`;
  const previous = syncing.get(key) ?? Promise.resolve();
  const next = previous.then(async () => {
    const ledger = ledgerFor(store.getState().graph, target);
    if (!ledger?.following) return;
    try {
      const { sessions } = await atlasApi.session(target.runner, target.sessionId);
      applyMirror(store, sessions);
    } catch (error) {
      const { code, message } = describeError(error);
      store.getState().toast('error', code, `Could not follow the session: ${message}`);
    }
  });
  syncing.set(key, next);
  return next.finally(() => {
    if (syncing.get(key) === next) syncing.delete(key);
  });
}

/**
 * Why panel → canvas: opens the mirror of `sessionId` that shows `turnKey` (mirroring it first, onto a new
 * canvas, when no canvas has it), then selects and centres the node.
 */
export async function openTurn(store: WeftStore, target: MirrorTarget, turnKey: string): Promise<string | null> {
  try {
    let graph = store.getState().graph;
    if (!ledgerFor(graph, target)) {
      for (const summary of store.getState().canvases) {
        if (summary.id === store.getState().activeCanvasId) continue;
        const document = await store.api.getCanvas(summary.id).catch(() => null);
        if (
          document?.ledgers.some((ledger) => ledger.runner === target.runner && ledger.sessionId === target.sessionId)
        ) {
          await store.getState().openCanvas(summary.id);
          break;
        }
      }
      graph = store.getState().graph;
    }
    let nodeId = ledgerFor(graph, target)?.nodeIdByTurnKey[turnKey];
    if (!nodeId || !graph?.nodes.has(nodeId)) {
      const plan = ledgerFor(graph, target)
        ? await mirrorSession(store, target, 'current')
        : await mirrorSession(store, target, 'new');
      nodeId = plan?.nodeIdByTurnKey[turnKey];
    }
    showCanvas(store);
    if (!nodeId || !store.getState().graph?.nodes.has(nodeId)) {
      store
        .getState()
        .toast('error', 'turn-not-on-canvas', 'That turn is not on the canvas (it may have been deleted there).');
      return null;
    }
    revealNode(store, nodeId);
    return nodeId;
  } catch (error) {
    const { code, message } = describeError(error);
    store.getState().toast('error', code, message);
    return null;
  }
}
