import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionSchema, type Session } from '../../../protocol/atlas-session.ts';
import type { MirrorNode } from '../../../protocol/canvas-document.ts';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { TestApp } from '../store/test-app.ts';
import { applyMirror, ledgerFor } from './mirror-actions.ts';

// The mirror goes through the normal store path: one undo step, events with metadata only, persisted like any edit.
// The server reads the real fixture sessions (read-only roots; its index lives in its own temporary WEFT_HOME).
const FIXTURES = new URL('../../../tests/fixtures/real-sessions/', import.meta.url).pathname;
const CLAUDE_SUBAGENT_SESSION = '195b5b8f-a852-4bc6-b7e0-b737f1ca64d3';

let server: TestServer;
let sessions: Session[];
const savedRoots = process.env.WEFT_SESSION_ROOTS;

beforeAll(async () => {
  process.env.WEFT_SESSION_ROOTS = FIXTURES;
  server = await startTestServer();
  const response = await server.api(`/api/atlas/sessions/${CLAUDE_SUBAGENT_SESSION}?runner=claude-code`);
  sessions = ((await response.json()) as { sessions: unknown[] }).sessions.map((session) =>
    SessionSchema.parse(session),
  );
});
afterAll(async () => {
  await server?.dispose();
  if (savedRoots === undefined) delete process.env.WEFT_SESSION_ROOTS;
  else process.env.WEFT_SESSION_ROOTS = savedRoots;
});

describe('applyMirror through the canvas store', () => {
  it('adds the turns as one undoable change, records a metadata-only mirror event, and persists nodes and ledger', async () => {
    const app = await new TestApp(server, `atlas-mirror-${Math.random()}`).start();
    await app.state.createCanvas('Mirror test');
    const historyBefore = app.state.past.length;

    const plan = applyMirror(app.store, sessions)!;
    expect(plan.counts).toMatchObject({ turns: 1, subagentTurns: 1 });
    const mirrors = [...app.graph.nodes.values()].filter((node): node is MirrorNode => node.kind === 'mirror');
    expect(mirrors.map((node) => node.source.sessionId).sort()).toEqual(
      sessions.map((session) => session.sessionId).sort(),
    );
    expect(app.state.past.length).toBe(historyBefore + 1);
    const mirrorEvent = app.graph.events.find((event) => event.op === 'mirror')!;
    expect(mirrorEvent.meta).toEqual({ runner: 'claude-code', turns: 1, subagentTurns: 1, notes: 0, refreshed: 0 });
    expect(JSON.stringify(app.graph.events)).not.toContain(sessions[0]!.turns[0]!.userText);

    await app.state.flush();
    const stored = (await (await server.api(`/api/canvases/${app.state.activeCanvasId}`)).json()) as {
      nodes: { id: string; kind: string }[];
      ledgers: { sessionId: string; turnKeys: string[] }[];
    };
    expect(stored.nodes.filter((node) => node.kind === 'mirror')).toHaveLength(2);
    expect(stored.ledgers).toEqual([
      expect.objectContaining({ sessionId: CLAUDE_SUBAGENT_SESSION, turnKeys: plan.ledger.turnKeys }),
    ]);

    // Mirroring again changes nothing and adds no undo step.
    expect(applyMirror(app.store, sessions)!.changes).toEqual([]);
    expect(app.state.past.length).toBe(historyBefore + 1);

    app.state.undo();
    expect([...app.graph.nodes.values()].some((node) => node.kind === 'mirror')).toBe(false);
    expect(ledgerFor(app.graph, { runner: 'claude-code', sessionId: CLAUDE_SUBAGENT_SESSION })).toBeNull();
    app.state.redo();
    expect([...app.graph.nodes.values()].filter((node) => node.kind === 'mirror')).toHaveLength(2);
    await app.close();
  });
});
