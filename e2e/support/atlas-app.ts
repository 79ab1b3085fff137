import { copyAtlasFixtures, type AtlasFixtures } from '../../server/atlas/testing/atlas-fixtures.ts';
import { closeAtlasService } from '../../server/atlas/atlas-registry.ts';
import { launchApp, type LaunchedApp } from './launch-app.ts';

export interface AtlasApp {
  app: LaunchedApp;
  fixtures: AtlasFixtures;
  close(): Promise<void>;
}

/**
 * The real app in Chromium with `WEFT_SESSION_ROOTS` pointing at a temporary copy of the real fixture sessions
 * (one root per recorded case, laid out as the runners do). The server reads the roots from the process environment.
 */
export async function launchAtlasApp(
  options: { viewport?: { width: number; height: number } } = {},
): Promise<AtlasApp> {
  const fixtures = copyAtlasFixtures('weft-atlas-e2e-');
  const saved = process.env.WEFT_SESSION_ROOTS;
  process.env.WEFT_SESSION_ROOTS = fixtures.rootsVariable;
  const app = await launchApp({ home: fixtures.weftHome, ...(options.viewport ? { viewport: options.viewport } : {}) });
  return {
    app,
    fixtures,
    async close() {
      await closeAtlasService(app.server.context).catch(() => undefined);
      await app.close();
      if (saved === undefined) delete process.env.WEFT_SESSION_ROOTS;
      else process.env.WEFT_SESSION_ROOTS = saved;
      fixtures.dispose();
    },
  };
}

/** Reads the open canvas through the page's store (the surface the e2e tests drive). */
export const canvasSnapshot = `(() => {
  const state = window.weft.store.getState();
  const graph = state.graph;
  return {
    id: state.activeCanvasId,
    nodes: [...graph.nodes.values()].map((node) => ({ id: node.id, kind: node.kind, position: node.position, question: node.question ?? null, answer: node.answer ?? null, turnKey: node.source ? node.source.turnKey : null, delegatedBy: node.source ? node.source.delegatedBy : null })),
    wires: [...graph.wires.values()].map((wire) => ({ from: wire.from, to: wire.to, kind: wire.kind })),
    ledgers: graph.ledgers,
    events: graph.events.map((event) => ({ op: event.op, meta: event.meta })),
  };
})()`;

export interface CanvasSnapshot {
  id: string;
  nodes: {
    id: string;
    kind: string;
    position: { x: number; y: number };
    question: string | null;
    answer: string | null;
    turnKey: string | null;
    delegatedBy: string | null;
  }[];
  wires: { from: string; to: string; kind: string }[];
  ledgers: {
    runner: string;
    sessionId: string;
    turnKeys: string[];
    nodeIdByTurnKey: Record<string, string>;
    following: boolean;
  }[];
  events: { op: string; meta: Record<string, unknown> }[];
}
