import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Graph } from '../../core/index.ts';
import type { QuestionNode } from '../../../protocol/canvas-document.ts';
import {
  startScriptedProvider,
  startTestServer,
  type ScriptedProvider,
  type TestServer,
} from '../../../tests/support/index.ts';
import { TestApp } from './test-app.ts';

let server: TestServer;
let provider: ScriptedProvider;
beforeAll(async () => {
  [server, provider] = await Promise.all([startTestServer(), startScriptedProvider()]);
  provider.setDefault({ text: 'A scripted answer.' });
});
afterAll(async () => {
  await server?.dispose();
  await provider?.close();
});

const versions = (graph: Graph, ids: string[]) =>
  ids.map((id) => (graph.nodes.get(id) as QuestionNode).versions.length);
const lanes = (graph: Graph) => graph.events.filter((event) => event.op === 'commit').map((event) => event.meta.lane);
let databaseCounter = 0;

/** A canvas on the scripted provider (a paid model stand-in: every request is counted). */
async function scriptedApp(): Promise<TestApp> {
  const app = await new TestApp(server, `auto-rerun-wave-${databaseCounter++}-${Math.random()}`).start();
  await app.state.createCanvas('Waves');
  expect(
    await app.state.saveSettings({
      providers: [{ id: 'scripted', kind: 'openai-compatible', baseUrl: `${provider.url}/v1`, models: ['model'] }],
      defaultModelId: 'scripted/model',
    }),
  ).toBe(true);
  return app;
}

function chainOf(app: TestApp, questions: string[]): string[] {
  const ids = questions.map((text) => app.addQuestion(text));
  for (let index = 1; index < ids.length; index += 1) app.wire(ids[index - 1]!, ids[index]!);
  return ids;
}

describe('auto-rerun waves (C4)', () => {
  it('asking the head of A→B→C→D with B, C, D on auto-rerun (1 round) runs each once: versions [1,1,1,1]', async () => {
    const app = await scriptedApp();
    const [a, b, c, d] = chainOf(app, ['A?', 'B?', 'C?', 'D?']);
    for (const id of [b!, c!, d!]) app.state.apply({ type: 'set-auto-rerun', nodeId: id, enabled: true });
    const before = provider.requests.length;
    expect(await app.state.ask(a!)).toBe(true);
    expect(versions(app.graph, [a!, b!, c!, d!])).toEqual([1, 1, 1, 1]);
    expect(provider.requests.length - before).toBe(4);
    expect(lanes(app.graph)).toEqual(['chat', 'auto-rerun', 'auto-rerun', 'auto-rerun']);
    expect(app.state.shown.size).toBe(0);
    await app.close();
  });

  it('a diamond runs its join once, after both sides; archived and unflagged nodes never run', async () => {
    const app = await scriptedApp();
    const top = app.addQuestion('Top?');
    const left = app.addQuestion('Left?');
    const right = app.addQuestion('Right?');
    const join = app.addQuestion('Join?');
    const archived = app.addQuestion('Archived below?');
    const plain = app.addQuestion('Not flagged?');
    for (const [from, to] of [
      [top, left],
      [top, right],
      [left, join],
      [right, join],
      [join, archived],
      [top, plain],
    ] as const)
      app.wire(from, to);
    for (const id of [left, right, join, archived])
      app.state.apply({ type: 'set-auto-rerun', nodeId: id, enabled: true });
    app.state.apply({ type: 'archive', nodeId: archived });
    expect(await app.state.ask(top)).toBe(true);
    expect(versions(app.graph, [top, left, right, join, archived, plain])).toEqual([1, 1, 1, 1, 0, 0]);
    const order = app.graph.events
      .filter((event) => event.op === 'version')
      .map((event) => event.objectId)
      .slice(-4);
    expect(order.indexOf(join)).toBe(3);
    await app.close();
  });

  it('Replay is one wave: an auto-rerun node below two replayed nodes runs once, after both', async () => {
    const app = await scriptedApp();
    const root = app.addQuestion('Root?');
    const first = app.addQuestion('First?');
    const second = app.addQuestion('Second?');
    const below = app.addQuestion('Below both?');
    app.wire(root, first);
    app.wire(root, second);
    app.wire(first, below);
    app.wire(second, below);
    for (const id of [root, first, second, below]) expect(await app.state.ask(id)).toBe(true);
    app.state.apply({ type: 'set-auto-rerun', nodeId: below, enabled: true });
    app.edit(root, 'Root, reworded?');
    expect([...app.state.shown].sort()).toEqual([root, first, second, below].sort());
    await app.state.replayStale();
    expect(versions(app.graph, [root, first, second, below])).toEqual([2, 2, 2, 2]);
    expect(app.state.shown.size).toBe(0);
    await app.close();
  });

  it('an agent-lane node never runs unattended: neither an auto-rerun wave nor Replay sends it anywhere', async () => {
    const app = await scriptedApp();
    const [a, b] = chainOf(app, ['A?', 'B, by an agent?']);
    expect(await app.state.ask(b!)).toBe(true);
    app.state.apply({ type: 'set-auto-rerun', nodeId: b!, enabled: true });
    app.state.apply({ type: 'edit-node', nodeId: b!, patch: { model: 'agent:pi' } });
    const before = provider.requests.length;
    expect(await app.state.ask(a!)).toBe(true);
    expect(provider.requests.length - before).toBe(1);
    expect(app.state.shown.has(b!)).toBe(true);
    await app.state.replayStale();
    expect(provider.requests.length - before).toBe(1);
    expect(versions(app.graph, [a!, b!])).toEqual([1, 1]);
    expect(lanes(app.graph)).toEqual(['chat', 'chat']);
    // Skipped outright, not tried on the chat path and failed there.
    expect(app.state.toasts.filter((toast) => toast.kind === 'error')).toEqual([]);
    await app.close();
  });

  it('a wave whose canvas the person left goes on there, by the same rule', async () => {
    const app = await scriptedApp();
    const sourceId = app.state.activeCanvasId!;
    const [a, b, c] = chainOf(app, ['A, slowly?', 'B?', 'C?']);
    for (const id of [b!, c!]) app.state.apply({ type: 'set-auto-rerun', nodeId: id, enabled: true });
    await app.state.flush();
    const before = provider.requests.length;
    provider.script({ text: 'A slow answer.', firstDelayMs: 400 });
    const asking = app.state.ask(a!);
    await provider.waitForRequests(before + 1);
    await app.state.createCanvas('Elsewhere');
    expect(await asking).toBe(true);
    expect(provider.requests.length - before).toBe(3);
    await app.state.openCanvas(sourceId);
    expect(versions(app.graph, [a!, b!, c!])).toEqual([1, 1, 1]);
    expect(lanes(app.graph)).toEqual(['chat', 'auto-rerun', 'auto-rerun']);
    expect(app.state.shown.size).toBe(0);
    await app.close();
  });

  it('stopping a rerun stops what is below it in the wave; nothing builds on the missing answer', async () => {
    const app = await scriptedApp();
    const [a, b, c] = chainOf(app, ['A?', 'B, hanging?', 'C?']);
    for (const id of [b!, c!]) app.state.apply({ type: 'set-auto-rerun', nodeId: id, enabled: true });
    const before = provider.requests.length;
    provider.script({ text: 'A answered.' }, { text: 'B begins', hang: true });
    const asking = app.state.ask(a!);
    await provider.waitForRequests(before + 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    app.state.stop(b!);
    expect(await asking).toBe(true);
    expect(provider.requests.length - before).toBe(2);
    expect(versions(app.graph, [a!, c!])).toEqual([1, 0]);
    expect((app.graph.nodes.get(b!) as QuestionNode).versions.map((version) => version.status)).not.toContain(
      'complete',
    );
    await app.close();
  });
});
