import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentFromGraph, type Graph } from '../../core/index.ts';
import type { QuestionNode } from '../../../protocol/canvas-document.ts';
import { startScriptedProvider, startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { exactRevision, persistenceCounters } from '../db/canvas-persistence.ts';
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

describe('a canvas changed elsewhere (canvas-changed on /api/stream)', () => {
  it('refreshes the open canvas, ignores its own saves, and never clobbers unsaved local edits', async () => {
    // Saves only on flush(), so "an edit not yet saved" is not a race with the debounce.
    const app = await new TestApp(server, freshName(), { durableDelayMs: 60_000 }).start();
    await app.state.createCanvas('Test canvas');
    const id = app.state.activeCanvasId!;
    const asked = app.addQuestion('What is light?');
    await app.state.flush();
    // This page's own save echoes back unchanged.
    expect(await app.state.canvasChangedElsewhere(id)).toBe(false);

    // Another tab or tool renames a node and saves the durable record.
    const remote = documentFromGraph(app.graph);
    // Another writer names the revision it read, as every writer must.
    const put = async (document: typeof remote) => {
      const current = await server.api(`/api/canvases/${id}`);
      const etag = current.status === 200 ? current.headers.get('etag') : null;
      return server.api(`/api/canvases/${id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...(etag ? { 'if-match': etag } : {}) },
        body: JSON.stringify(document),
      });
    };
    await put({
      ...remote,
      nodes: remote.nodes.map((node) =>
        node.id === asked ? { ...node, question: 'What is light, elsewhere?' } : node,
      ),
    });
    expect(await app.state.canvasChangedElsewhere(id)).toBe(true);
    expect(question(app.graph, asked).question).toBe('What is light, elsewhere?');
    const reloaded = await new TestApp(server, app.database.name).start();
    expect(question(reloaded.graph, asked).question).toBe('What is light, elsewhere?');
    await reloaded.close();

    // An edit not yet saved here wins over a remote change arriving meanwhile…
    app.edit(asked, 'My unsaved wording?');
    const elsewhere = (await (await server.api(`/api/canvases/${id}`)).json()) as typeof remote;
    const remoteNote = { ...remote.nodes[0]!, id: 'remote-note', kind: 'note' as const, text: 'Added elsewhere' };
    const {
      question: _question,
      versions: _versions,
      currentVersionId: _current,
      autoRerun: _auto,
      model: _model,
      attachments: _attachments,
      ...noteBase
    } = remoteNote as Record<string, unknown>;
    const remoteSave = await put({
      ...elsewhere,
      nodes: [
        ...elsewhere.nodes.map((node) => (node.id === asked ? { ...node, question: 'Remote wording?' } : node)),
        noteBase as (typeof remote.nodes)[number],
      ],
    });
    expect(remoteSave.status, await remoteSave.clone().text()).toBe(200);
    expect(await app.state.canvasChangedElsewhere(id)).toBe(false);
    expect(question(app.graph, asked).question).toBe('My unsaved wording?');
    // …and its save, refused as stale (409), is rebased onto the newer record: both changes are kept.
    await app.state.flush();
    expect(question(app.graph, asked).question).toBe('My unsaved wording?');
    expect(app.graph.nodes.get('remote-note')).toMatchObject({ kind: 'note', text: 'Added elsewhere' });
    const merged = (await (await server.api(`/api/canvases/${id}`)).json()) as typeof remote;
    expect(merged.nodes.map((node) => node.id)).toContain('remote-note');
    expect(merged.nodes.find((node) => node.id === asked)).toMatchObject({ question: 'My unsaved wording?' });

    // A late canvas-changed for a canvas deleted here does not bring it back.
    const last = documentFromGraph(app.graph);
    await app.state.createCanvas('Next');
    await app.state.deleteCanvas(id);
    await put(last); // as if the server still held the record when the event was read
    expect(await app.state.canvasChangedElsewhere(id)).toBe(false);
    expect(app.state.canvases.map((canvas) => canvas.id)).not.toContain(id);
    await app.close();
  });
});

describe('a canvas deleted elsewhere (canvas-deleted on /api/stream)', () => {
  it('drops the open canvas with its unsaved edits, switches away, says so, and never re-creates it', async () => {
    const app = await emptyCanvasApp();
    const kept = app.state.activeCanvasId!;
    const id = await app.state.createCanvas('Doomed');
    app.addQuestion('Saved before the delete?');
    await app.state.flush();
    // Another tab deletes it while this tab holds an edit not yet saved.
    expect((await server.api(`/api/canvases/${id}`, { method: 'DELETE' })).ok).toBe(true);
    app.addQuestion('Unsaved when it went?');
    expect(app.store.runtime.writer.hasPending()).toBe(true);

    expect(await app.state.canvasDeletedElsewhere(id)).toBe(true);
    expect(app.state.activeCanvasId).not.toBe(id);
    expect(app.state.canvases.map((canvas) => canvas.id)).toContain(kept);
    expect(app.graph.canvas.id).toBe(app.state.activeCanvasId);
    expect(app.state.canvases.map((canvas) => canvas.id)).not.toContain(id);
    expect(app.lastToast()).toMatchObject({ code: 'canvas-deleted' });
    expect(app.lastToast()?.message).toContain('“Doomed” was deleted elsewhere');
    expect(await app.database.canvases.get(id)).toBeUndefined();
    expect(await app.database.packs.where('canvasId').equals(id).count()).toBe(0);

    // The edit's debounced save never goes out, and later saves are of the canvas now open.
    await new Promise((resolve) => setTimeout(resolve, 60));
    app.addQuestion('Next edit here?');
    await app.state.flush();
    expect((await server.api(`/api/canvases/${id}`)).status).toBe(404);
    expect(await app.state.canvasDeletedElsewhere(id)).toBe(false);
    await app.close();
  });

  it('with no canvas left, starts an empty one', async () => {
    const isolated = await startTestServer();
    try {
      const app = await new TestApp(isolated, freshName()).start();
      const only = app.state.activeCanvasId!;
      expect((await isolated.api(`/api/canvases/${only}`, { method: 'DELETE' })).ok).toBe(true);
      expect(await app.state.canvasDeletedElsewhere(only)).toBe(true);
      expect(app.state.activeCanvasId).not.toBe(only);
      expect(app.state.canvases).toHaveLength(1);
      expect(app.graph.nodes.size).toBe(0);
      await app.close();
      expect((await isolated.api(`/api/canvases/${only}`)).status).toBe(404);
    } finally {
      await isolated.dispose();
    }
  });
});

describe('an answer that outlives its canvas', () => {
  it('finishes after the person switched canvases and is written into the canvas it came from', async () => {
    const provider = await startScriptedProvider();
    provider.setDefault({ text: 'Rayleigh scattering grows as 1/λ⁴.', firstDelayMs: 400 });
    const isolated = await startTestServer();
    try {
      const app = await new TestApp(isolated, freshName()).start();
      const sourceId = await app.state.createCanvas('Source');
      expect(
        await app.state.saveSettings({
          providers: [{ id: 'slow', kind: 'openai-compatible', baseUrl: `${provider.url}/v1`, models: ['model'] }],
          defaultModelId: 'slow/model',
        }),
      ).toBe(true);
      const asked = app.addQuestion('What is Rayleigh scattering?');
      const asking = app.state.ask(asked);
      await provider.waitForRequests(1);
      const otherId = await app.state.createCanvas('Elsewhere');
      // It completed, in the canvas it came from.
      expect(await asking).toBe(true);
      expect(app.state.activeCanvasId).toBe(otherId);
      expect(app.graph.nodes.has(asked)).toBe(false);
      expect(app.lastToast()?.code).toBe('answer-saved');

      // The durable record and IndexedDB both hold the version and its commit event.
      const response = await isolated.api(`/api/canvases/${sourceId}`);
      const durable = (await response.json()) as {
        nodes: QuestionNode[];
        events: { op: string }[];
      };
      // The rows are exactly that record, so a reload's first save of it sends only what changes.
      expect(`"${await exactRevision(app.database, sourceId)}"`).toBe(response.headers.get('etag'));
      expect(durable.nodes.find((node) => node.id === asked)?.versions.map((version) => version.text)).toEqual([
        'Rayleigh scattering grows as 1/λ⁴.',
      ]);
      expect(durable.events.filter((event) => event.op === 'commit')).toHaveLength(1);
      await app.state.openCanvas(sourceId);
      const node = question(app.graph, asked);
      expect(node.versions).toHaveLength(1);
      expect(node.currentVersionId).toBe(node.versions[0]!.id);
      expect(node.versions[0]!.model).toBe('slow/model');
      await app.close();
    } finally {
      await isolated.dispose();
      await provider.close();
    }
  });
});

describe('a Replay that outlives its canvas', () => {
  it('goes on replaying into the canvas it started in after the person switched away', async () => {
    const provider = await startScriptedProvider();
    provider.setDefault({ text: 'A slower, newer answer.', firstDelayMs: 300 });
    const isolated = await startTestServer();
    try {
      const app = await new TestApp(isolated, freshName()).start();
      const sourceId = await app.state.createCanvas('Replayed');
      const upstream = app.addQuestion('What is Rayleigh scattering?');
      const first = app.addQuestion('So why is the sky blue?');
      const second = app.addQuestion('And why are sunsets red?');
      app.wire(upstream, first);
      app.wire(upstream, second);
      for (const id of [upstream, first, second]) expect(await app.state.ask(id)).toBe(true);
      expect(
        await app.state.saveSettings({
          providers: [{ id: 'slow', kind: 'openai-compatible', baseUrl: `${provider.url}/v1`, models: ['model'] }],
          defaultModelId: 'slow/model',
        }),
      ).toBe(true);
      app.edit(upstream, 'What is Mie scattering?');
      // The edited question's own answer is stale too (C6), and so are the two that read it.
      expect([...app.state.shown].sort()).toEqual([upstream, first, second].sort());

      const replaying = app.state.replayStale();
      await provider.waitForRequests(1);
      const otherId = await app.state.createCanvas('Elsewhere');
      await replaying;
      expect(app.state.activeCanvasId).toBe(otherId);
      expect(provider.requests.length).toBe(3);
      expect(app.state.replay).toMatchObject({ total: 3, done: 3, running: false });

      // Both answers landed in the canvas the Replay started in, on the durable record and in IndexedDB.
      const durable = (await (await isolated.api(`/api/canvases/${sourceId}`)).json()) as {
        nodes: QuestionNode[];
        events: { op: string; meta: { lane?: string } }[];
      };
      for (const id of [upstream, first, second]) {
        expect(durable.nodes.find((node) => node.id === id)?.versions.map((version) => version.text)).toEqual([
          expect.any(String),
          'A slower, newer answer.',
        ]);
      }
      expect(durable.events.filter((event) => event.op === 'commit' && event.meta.lane === 'replay')).toHaveLength(3);
      await app.state.openCanvas(sourceId);
      expect(app.state.shown.size).toBe(0);
      expect(question(app.graph, second).versions[1]!.model).toBe('slow/model');
      await app.close();
    } finally {
      await isolated.dispose();
      await provider.close();
    }
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
