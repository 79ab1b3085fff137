import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Graph } from '../../core/index.ts';
import type { QuestionNode } from '../../../protocol/canvas-document.ts';
import { startScriptedProvider, startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { exactRevision } from '../db/canvas-persistence.ts';
import { TestApp } from './test-app.ts';

/**
 * Work that was under way when the person switched canvases lands where it began, never on the canvas now open.
 * (A new node asked for while a canvas is being created: `commands/app-commands.test.ts`.)
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
});

const question = (graph: Graph, id: string) => graph.nodes.get(id) as QuestionNode;
let databaseCounter = 0;
const freshName = () => `canvas-switch-test-${databaseCounter++}-${Math.random()}`;

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
