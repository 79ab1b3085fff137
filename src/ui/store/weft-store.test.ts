import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentFromGraph, type Graph } from '../../core/index.ts';
import type { QuestionNode } from '../../../protocol/canvas-document.ts';
import { startScriptedProvider, startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { persistenceCounters } from '../db/canvas-persistence.ts';
import { plannedRequest } from './planned-request.ts';
import { TestApp } from './test-app.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
});

const question = (graph: Graph, id: string) => graph.nodes.get(id) as QuestionNode;
let databaseCounter = 0;
const freshName = () => `weft-store-test-${databaseCounter++}-${Math.random()}`;

async function emptyCanvasApp(): Promise<TestApp> {
  const app = await new TestApp(server, freshName()).start();
  await app.state.createCanvas('Test canvas');
  return app;
}

describe('first run and restore', () => {
  it('creates the demo canvas when nothing exists anywhere, and stores it on the server', async () => {
    const isolated = await startTestServer();
    try {
      const app = await new TestApp(isolated, freshName()).start();
      expect(app.graph.nodes.size).toBeGreaterThan(5);
      expect(
        [...app.graph.nodes.values()].some(
          (node) => node.kind === 'question' && node.versions.some((version) => version.origin === 'demo'),
        ),
      ).toBe(true);
      expect([...app.graph.nodes.values()].some((node) => node.archived)).toBe(true);
      expect(app.state.shown.size).toBeGreaterThan(0);
      const listed = (await (await isolated.api('/api/canvases')).json()) as { canvases: { id: string }[] };
      expect(listed.canvases.map((canvas) => canvas.id)).toContain(app.state.activeCanvasId);
      await app.close();

      // A browser with an empty IndexedDB restores from the durable record instead of a new demo.
      const other = await new TestApp(isolated, freshName()).start();
      expect(other.state.activeCanvasId).toBe(app.state.activeCanvasId);
      expect(documentFromGraph(other.graph)).toEqual(documentFromGraph(app.graph));
      await other.close();
    } finally {
      await isolated.dispose();
    }
  });
});

describe('graph changes and persistence', () => {
  it('an edit writes only the rows it touched, and a reload restores everything', async () => {
    const app = await emptyCanvasApp();
    const first = app.addQuestion('What is light?');
    const second = app.addQuestion('Why is the sky blue?');
    expect(app.wire(first, second)).toBe(true);
    await app.state.flush();
    const before = persistenceCounters.rowsWritten;
    app.edit(second, 'Why is the sky blue at noon?');
    await app.state.flush();
    const written = persistenceCounters.rowsWritten - before;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThanOrEqual(3);

    const reloaded = await new TestApp(server, app.database.name).start();
    expect(reloaded.state.activeCanvasId).toBe(app.state.activeCanvasId);
    expect(documentFromGraph(reloaded.graph)).toEqual(documentFromGraph(app.graph));
    await reloaded.close();
    await app.close();
  });

  it('refuses a wire that would close a cycle, naming the path; undo keeps the event log', async () => {
    const app = await emptyCanvasApp();
    const a = app.addQuestion('A?');
    const b = app.addQuestion('B?');
    const c = app.addQuestion('C?');
    app.wire(a, b);
    app.wire(b, c);
    expect(app.wire(c, a)).toBe(false);
    expect(app.lastToast()?.code).toBe('cycle');
    expect(app.lastToast()?.message).toMatch(/loop: “A\?” → “B\?” → “C\?” → “A\?”/);
    expect(app.graph.wires.size).toBe(2);

    const eventsBefore = app.graph.events.length;
    app.edit(b, 'B changed?');
    const eventsAfterEdit = app.graph.events.length;
    app.state.undo();
    expect(question(app.graph, b).question).toBe('B?');
    expect(app.graph.events.length).toBe(eventsAfterEdit);
    expect(eventsAfterEdit).toBeGreaterThan(eventsBefore);
    app.state.redo();
    expect(question(app.graph, b).question).toBe('B changed?');
    await app.close();
  });
});

describe('dispatch, stale and replay', () => {
  it('asks through the server: the version, the commit event and the preview share one hash', async () => {
    const app = await emptyCanvasApp();
    const upstream = app.addQuestion('What is Rayleigh scattering?');
    const downstream = app.addQuestion('So why is the sky blue?');
    app.wire(upstream, downstream);
    expect(await app.state.ask(upstream)).toBe(true);

    const preview = plannedRequest(app.state, downstream)!;
    expect(preview.compiled.sources.map((source) => source.nodeId)).toEqual([upstream, upstream, downstream]);
    expect(await app.state.ask(downstream)).toBe(true);
    const version = question(app.graph, downstream).versions[0]!;
    expect(version.requestHash).toBe(preview.built.requestHash);
    expect(version.text).toContain(preview.built.requestHash);
    const commits = app.graph.events.filter((event) => event.op === 'commit');
    expect(commits.map((event) => event.meta.requestHash)).toContain(preview.built.requestHash);
    await app.close();
  });

  it('an upstream edit marks the downstream stale; Replay adds a version, keeps the old one and clears the mark', async () => {
    const app = await emptyCanvasApp();
    const upstream = app.addQuestion('What is Rayleigh scattering?');
    const downstream = app.addQuestion('So why is the sky blue?');
    app.wire(upstream, downstream);
    await app.state.ask(upstream);
    await app.state.ask(downstream);
    expect(app.state.shown.size).toBe(0);

    app.edit(upstream, 'What is Mie scattering?');
    await app.state.ask(upstream);
    expect([...app.state.shown]).toEqual([downstream]);
    expect(plannedRequest(app.state, downstream)!.compiled.messages.length).toBeGreaterThan(0);

    await app.state.replayStale();
    const node = question(app.graph, downstream);
    expect(node.versions).toHaveLength(2);
    expect(node.currentVersionId).toBe(node.versions[1]!.id);
    expect(app.state.shown.size).toBe(0);
    expect(app.graph.events.filter((event) => event.op === 'commit').map((event) => event.meta.lane)).toContain(
      'replay',
    );
    await app.close();
  });

  it('an archived upstream leaves the preview, and an archived node never runs', async () => {
    const app = await emptyCanvasApp();
    const upstream = app.addQuestion('What is Rayleigh scattering?');
    const downstream = app.addQuestion('So why is the sky blue?');
    app.wire(upstream, downstream);
    expect(plannedRequest(app.state, downstream)!.compiled.sources.some((source) => source.nodeId === upstream)).toBe(
      true,
    );
    app.state.apply({ type: 'archive', nodeId: upstream });
    expect(plannedRequest(app.state, downstream)!.compiled.sources.some((source) => source.nodeId === upstream)).toBe(
      false,
    );
    expect(await app.state.ask(upstream)).toBe(false);
    expect(app.lastToast()?.code).toBe('archived');
    expect(question(app.graph, upstream).versions).toHaveLength(0);
    await app.close();
  });
});

describe('import and export', () => {
  it('round-trips a canvas through .weft.json and refuses newer or corrupt files whole', async () => {
    const app = await emptyCanvasApp();
    const a = app.addQuestion('Round trip?');
    await app.state.ask(a);
    const exported = app.state.exportDocument()!;
    const text = JSON.stringify(exported);
    const canvasCount = app.state.canvases.length;

    expect(await app.state.importDocument({ ...JSON.parse(text), version: 99 })).toBeNull();
    expect(app.lastToast()?.code).toBe('newer-version');
    const corrupt = JSON.parse(text);
    corrupt.wires = [{ id: 'w', from: a, to: 'missing', createdAt: 1, kind: 'solid' }];
    expect(await app.state.importDocument(corrupt)).toBeNull();
    expect(app.state.canvases.length).toBe(canvasCount);

    const importedId = await app.state.importDocument(JSON.parse(text));
    expect(importedId).not.toBeNull();
    const imported = app.state.exportDocument()!;
    expect({ ...imported, canvas: { ...imported.canvas, id: exported.canvas.id } }).toEqual(exported);
    await app.close();
  });
});

describe('importing a file whose event log is broken', () => {
  it('imports it, says so, records the break in an import event, and the record store keeps it as it came', async () => {
    const app = await emptyCanvasApp();
    app.addQuestion('First?');
    app.addQuestion('Second?');
    const exported = app.state.exportDocument()!;
    expect(exported.events.length).toBeGreaterThan(1);
    // Edited by hand after export: event 1's metadata no longer matches its hash.
    const tampered = {
      ...exported,
      events: exported.events.map((event, index) => (index === 0 ? { ...event, meta: { forged: true } } : event)),
    };
    const id = await app.state.importDocument(tampered);
    expect(id).not.toBeNull();
    expect(app.lastToast()?.code).toBe('imported-broken-chain');
    expect(app.lastToast()?.message).toContain('broken at event 1');
    const last = app.graph.events.at(-1)!;
    expect(last).toMatchObject({ op: 'import', meta: { chainBrokenAtEvent: 1, eventsInFile: exported.events.length } });
    await app.state.flush();
    const verified = (await (await server.api(`/api/canvases/${id}/verify`)).json()) as { verdict: unknown };
    expect(verified.verdict).toMatchObject({ status: 'bad-event', index: 0 });
    // Work goes on: new events chain onto the imported log and are stored.
    app.addQuestion('Third?');
    await app.state.flush();
    const stored = (await (await server.api(`/api/canvases/${id}`)).json()) as { events: unknown[] };
    expect(stored.events).toHaveLength(app.graph.events.length);
    await app.close();
  });
});

describe('canvas list, delete and auto-rerun', () => {
  it('deletes a node with its wires and undo restores both; the log keeps the delete', async () => {
    const app = await emptyCanvasApp();
    const a = app.addQuestion('A?');
    const b = app.addQuestion('B?');
    app.wire(a, b);
    expect(app.state.apply({ type: 'delete-node', nodeId: a })).toBe(true);
    expect(app.graph.nodes.has(a)).toBe(false);
    expect(app.graph.wires.size).toBe(0);
    app.state.undo();
    expect(app.graph.nodes.has(a)).toBe(true);
    expect(app.graph.wires.size).toBe(1);
    expect(app.graph.events.some((event) => event.op === 'delete' && event.objectId === a)).toBe(true);
    await app.close();
  });

  it('renames, duplicates and deletes canvases, locally and on the durable record', async () => {
    const app = await emptyCanvasApp();
    app.addQuestion('Kept in the copy?');
    app.state.renameCanvas('Renamed');
    expect(app.graph.canvas.name).toBe('Renamed');
    const originalId = app.state.activeCanvasId!;
    const copyId = await app.state.duplicateCanvas();
    expect(copyId).not.toBe(originalId);
    expect(app.graph.canvas.name).toBe('Renamed (copy)');
    expect([...app.graph.nodes.values()].map((node) => node.kind === 'question' && node.question)).toContain(
      'Kept in the copy?',
    );
    await app.state.flush();
    await app.state.deleteCanvas(copyId!);
    expect(app.state.canvases.map((canvas) => canvas.id)).not.toContain(copyId);
    expect((await server.api(`/api/canvases/${copyId}`)).status).toBe(404);
    expect(app.state.activeCanvasId).not.toBe(copyId);
    await app.close();
  });

  it('an auto-rerun node regenerates after its ancestor completes, and never when archived', async () => {
    const app = await emptyCanvasApp();
    const upstream = app.addQuestion('What is Rayleigh scattering?');
    const downstream = app.addQuestion('So why is the sky blue?');
    app.wire(upstream, downstream);
    app.state.apply({ type: 'set-auto-rerun', nodeId: downstream, enabled: true });
    await app.state.ask(upstream);
    expect(question(app.graph, downstream).versions).toHaveLength(1);
    expect(app.graph.events.filter((event) => event.op === 'commit').map((event) => event.meta.lane)).toEqual([
      'chat',
      'auto-rerun',
    ]);

    app.state.apply({ type: 'archive', nodeId: downstream });
    await app.state.ask(upstream);
    expect(question(app.graph, downstream).versions).toHaveLength(1);
    await app.close();
  });
});

describe('stale judge (C7)', () => {
  it('a judge verdict below one half dismisses the mark, visibly and with an event; a person can overrule it', async () => {
    const judge = await startScriptedProvider();
    judge.setDefault({ text: '{"default": 0.2, "unrelated": 0.8}' });
    const isolated = await startTestServer();
    try {
      const app = await new TestApp(isolated, freshName()).start();
      await app.state.createCanvas('Judged');
      expect(
        await app.state.saveSettings({
          providers: [{ id: 'judge', kind: 'openai-compatible', baseUrl: `${judge.url}/v1`, models: ['decider'] }],
          judgeModelId: 'judge/decider',
          defaultModelId: 'offline/receipt',
        }),
      ).toBe(true);
      const upstream = app.addQuestion('What is Rayleigh scattering?');
      const downstream = app.addQuestion('So why is the sky blue?');
      app.wire(upstream, downstream);
      await app.state.ask(upstream);
      await app.state.ask(downstream);
      app.edit(upstream, 'What is Rayleigh scattering, briefly?');
      await app.store.runtime.pendingJudgement;

      expect(judge.requests.length).toBe(1);
      expect(JSON.stringify(judge.requests[0]!.body)).toContain('So why is the sky blue?');
      expect(app.state.stale.has(downstream)).toBe(true);
      expect(app.state.shown.has(downstream)).toBe(false);
      const dismissal = app.graph.dismissals.find((entry) => entry.nodeId === downstream)!;
      expect(dismissal.probability).toBeCloseTo(0.2);
      expect(dismissal.reason).toContain('20%');
      const eventCount = app.graph.events.length;

      app.state.apply({
        type: 'overrule-dismissal',
        nodeId: downstream,
        fingerprint: dismissal.fingerprint,
        overruled: true,
      });
      expect(app.state.shown.has(downstream)).toBe(true);
      expect(app.graph.events.length).toBeGreaterThan(eventCount);
      await app.store.runtime.pendingJudgement;
      expect(judge.requests.length).toBe(1);
      await app.close();
    } finally {
      await isolated.dispose();
      await judge.close();
    }
  });
});
