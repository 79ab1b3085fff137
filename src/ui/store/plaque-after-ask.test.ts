import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Plaque, QuestionNode } from '../../../protocol/index.ts';
import {
  startScriptedProvider,
  startTestServer,
  type ScriptedProvider,
  type TestServer,
} from '../../../tests/support/index.ts';
import { rebaseSteps } from '../../core/index.ts';
import { TestApp } from './test-app.ts';

let server: TestServer;
let provider: ScriptedProvider;
let counter = 0;

const ROOT_ANSWER = 'IndexedDB is the browser store. Dexie wraps it. Schemas have versions. Upgrades move records.';
const ROOT_LADDER = {
  topic: 'Dexie',
  takeaway: 'Dexie wraps IndexedDB with versioned schemas',
  reason: 'The answer is about the wrapper.',
  sentences: [2, 3, 4],
};

async function settings(body: unknown): Promise<void> {
  const response = await server.api('/api/settings', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  provider = await startScriptedProvider();
  server = await startTestServer();
  await settings({
    providers: [
      {
        id: 'local',
        kind: 'openai-compatible',
        baseUrl: `${provider.url}/v1`,
        apiKey: 'sk-plaque-ui-0123456789',
        models: ['answerer'],
      },
    ],
    defaultModelId: 'local/answerer',
    plaqueWriter: 'model',
  });
});
afterAll(async () => {
  await server?.dispose();
  await provider?.close();
});

function currentPlaque(app: TestApp, nodeId: string): Plaque | undefined {
  const node = app.graph.nodes.get(nodeId) as QuestionNode;
  return node.versions.find((version) => version.id === node.currentVersionId)?.plaque;
}

describe('a plaque is written after each answer (C32)', () => {
  it('the answering model writes it; it changes no fingerprint, marks nothing stale and adds no undo step', async () => {
    const app = await new TestApp(server, `plaque-${counter++}-${Math.random()}`, { plaques: true }).start();
    await app.state.createCanvas('Plaques');
    const root = app.addQuestion('How do I store records in the browser?');
    provider.script({ text: ROOT_ANSWER }, { text: JSON.stringify(ROOT_LADDER) });
    expect(await app.state.ask(root)).toBe(true);
    const before = { fingerprints: new Map(app.state.fingerprints), undo: app.state.past.length };
    await vi.waitFor(() => expect(currentPlaque(app, root)).toBeDefined(), { timeout: 5000 });
    expect(currentPlaque(app, root)).toMatchObject({
      topic: 'Dexie',
      source: 'model',
      model: 'local/answerer',
      abstract: ['Dexie wraps it.', 'Schemas have versions.', 'Upgrades move records.'],
    });
    expect(app.graph.events.at(-1)?.op).toBe('plaque');
    expect(app.state.fingerprints).toEqual(before.fingerprints);
    expect([...app.state.shown]).toEqual([]);
    expect(app.state.past.length).toBe(before.undo);

    // The child's plaque writer is shown the parent's plaque as the thread.
    const child = app.addQuestion('And schema upgrades?');
    app.wire(root, child);
    provider.script({ text: 'Bump the version. Write an upgrade.' }, { text: 'not json' });
    const requestsBefore = provider.requests.length;
    expect(await app.state.ask(child)).toBe(true);
    await vi.waitFor(() => expect(currentPlaque(app, child)).toBeDefined(), { timeout: 5000 });
    const plaqueRequest = JSON.stringify(provider.requests[requestsBefore + 1]!.body);
    expect(plaqueRequest).toContain('Dexie: Dexie wraps IndexedDB with versioned schemas');
    // Its unreadable ladder was refused; the rule wrote the plaque from the first sentences.
    expect(currentPlaque(app, child)).toMatchObject({
      source: 'rule',
      refusal: 'unreadable',
      takeaway: 'Bump the version.',
    });
    await app.close();
  });

  it('a plaque whose save landed unanswered is found in the record when its step is replayed: no second event', async () => {
    const name = `plaque-${counter++}-${Math.random()}`;
    const app = await new TestApp(server, name, { plaques: true, durableDelayMs: 60_000 }).start();
    await app.state.createCanvas('Replayed plaque');
    const root = app.addQuestion('How do I store records in the browser?');
    provider.script({ text: ROOT_ANSWER }, { text: JSON.stringify(ROOT_LADDER) });
    expect(await app.state.ask(root)).toBe(true);
    await vi.waitFor(() => expect(currentPlaque(app, root)).toBeDefined(), { timeout: 5000 });
    const landed = app.graph;
    const pending = app.store.runtime.journal.pending(landed.canvas.id);
    expect(pending.length).toBeGreaterThan(0);
    // The whole queue replayed onto the record that already holds it (the save's answer was lost): nothing added.
    const replayed = rebaseSteps(landed, pending, () => `fresh-${Math.random()}`);
    expect(replayed.dropped).toEqual([]);
    expect(replayed.graph.events.filter((event) => event.op === 'plaque')).toHaveLength(1);
    expect(replayed.graph.events).toEqual(landed.events);
    await app.close();
  });

  it('Regenerate writes a new plaque for the version; a person’s edit is checked in core', async () => {
    const app = await new TestApp(server, `plaque-${counter++}-${Math.random()}`, { plaques: true }).start();
    await app.state.createCanvas('Regenerate');
    const node = app.addQuestion('How do I store records in the browser?');
    provider.script({ text: ROOT_ANSWER }, { status: 500, errorMessage: 'down' });
    expect(await app.state.ask(node)).toBe(true);
    await vi.waitFor(() => expect(currentPlaque(app, node)?.refusal).toBe('no-answer'), { timeout: 5000 });
    const versionId = (app.graph.nodes.get(node) as QuestionNode).currentVersionId!;

    provider.script({ text: JSON.stringify(ROOT_LADDER) });
    expect(await app.state.regeneratePlaque(node, versionId)).toBe(true);
    expect(currentPlaque(app, node)).toMatchObject({ source: 'model', topic: 'Dexie' });

    const edited = {
      ...currentPlaque(app, node)!,
      takeaway: 'Use Dexie for records',
      source: 'person' as const,
      model: null,
    };
    expect(app.state.apply({ type: 'set-plaque', nodeId: node, versionId, plaque: edited })).toBe(true);
    expect(currentPlaque(app, node)?.takeaway).toBe('Use Dexie for records');
    expect(
      app.state.apply({ type: 'set-plaque', nodeId: node, versionId, plaque: { ...edited, topic: 'Giraffe' } }),
    ).toBe(false);
    expect(app.lastToast()?.code).toBe('invalid');
    expect([...app.state.shown]).toEqual([]);
    await app.close();
  });
});
