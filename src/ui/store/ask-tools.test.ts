import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuestionNode } from '../../../protocol/canvas-document.ts';
import {
  startScriptedCrossref,
  startServerWithProvider,
  type ScriptedCrossref,
  type ScriptedProvider,
  type TestServer,
} from '../../../tests/support/index.ts';
import { TestApp } from './test-app.ts';

// C35 through the store and the real server: an ask with scholarly search on keeps its tool calls on the version
// and writes one metadata-only event per call, in the same change as the version.
let server: TestServer;
let provider: ScriptedProvider;
let dispose = async () => {};
let crossref: ScriptedCrossref;

beforeAll(async () => {
  crossref = await startScriptedCrossref([
    { DOI: '10.1/x', title: ['A Study of Tools'], issued: { 'date-parts': [[2024]] } },
  ]);
  ({ server, provider, dispose } = await startServerWithProvider({
    models: ['m', 'm2'],
    apiKey: 'sk-test-ask-tools-0123',
    server: { allowLoopbackTargets: true, crossrefUrl: crossref.url },
  }));
});
afterAll(async () => {
  await dispose();
  await crossref?.close();
});

describe('ask with a tool switched on', () => {
  it('keeps each call on the version and logs one event per call after the commit; with tools off none is offered', async () => {
    const app = await new TestApp(server, `ask-tools-${Math.random()}`).start();
    await app.state.createCanvas('Tools canvas');
    const node = app.addQuestion('Find a study of tools.');
    app.state.apply({ type: 'edit-node', nodeId: node, patch: { model: 'local/m', tools: ['scholarly-search'] } });
    app.state.apply({ type: 'set-canvas-tools', allowed: true });

    provider.script(
      {
        toolCalls: [
          { id: 'c1', name: 'scholarly_search', input: { query: 'tools' } },
          { id: 'c2', name: 'nope', input: {} },
        ],
      },
      { text: 'Found: A Study of Tools (2024).' },
    );
    expect(await app.state.ask(node)).toBe(true);
    const version = (app.graph.nodes.get(node) as QuestionNode).versions[0]!;
    expect(version.text).toBe('Found: A Study of Tools (2024).');
    expect(version.toolCalls?.map(({ callId, tool, status, code }) => ({ callId, tool, status, code }))).toEqual([
      { callId: 'c1', tool: 'scholarly_search', status: 'ok', code: null },
      { callId: 'c2', tool: 'nope', status: 'error', code: 'tool-not-declared' },
    ]);
    expect(version.toolCalls?.[0]?.output).toBe('1. A Study of Tools — unknown authors (2024). https://doi.org/10.1/x');
    const ops = app.graph.events.map((event) => event.op);
    expect(ops.slice(ops.indexOf('commit'))).toEqual(['commit', 'version', 'tool-call', 'tool-call']);
    const toolEvents = app.graph.events.filter((event) => event.op === 'tool-call');
    expect(toolEvents.map((event) => event.meta.versionId)).toEqual([version.id, version.id]);
    expect(JSON.stringify(toolEvents)).not.toContain('Study');

    // Switched off again: the next request declares nothing and its version keeps no calls.
    app.state.apply({ type: 'edit-node', nodeId: node, patch: { tools: [] } });
    provider.requests.length = 0;
    provider.script({ text: 'No tools this time.' });
    expect(await app.state.ask(node)).toBe(true);
    expect(JSON.stringify(provider.requests[0]!.body)).not.toContain('scholarly_search');
    expect((app.graph.nodes.get(node) as QuestionNode).versions.at(-1)!.toolCalls).toBeUndefined();
    await app.close();
  });

  it('records the calls that ran when the provider fails before any text, with no version to keep them', async () => {
    const app = await new TestApp(server, `ask-tools-failed-${Math.random()}`).start();
    await app.state.createCanvas('Failed tools');
    const node = app.addQuestion('Find a study of tools.');
    app.state.apply({ type: 'edit-node', nodeId: node, patch: { model: 'local/m', tools: ['scholarly-search'] } });
    app.state.apply({ type: 'set-canvas-tools', allowed: true });
    provider.script(
      { toolCalls: [{ id: 'c9', name: 'scholarly_search', input: { query: 'tools' } }] },
      { status: 500, errorMessage: 'the provider broke' },
    );
    expect(await app.state.ask(node)).toBe(false);
    expect((app.graph.nodes.get(node) as QuestionNode).versions).toEqual([]);
    const toolEvents = app.graph.events.filter((event) => event.op === 'tool-call');
    expect(toolEvents.map((event) => event.meta)).toEqual([
      expect.objectContaining({ versionId: null, callId: 'c9', tool: 'scholarly_search', status: 'ok' }),
    ]);
    await app.close();
  });

  it('a model set records every answer’s tool calls as events, as a single ask does (C35, C10)', async () => {
    const app = await new TestApp(server, `ask-tools-set-${Math.random()}`).start();
    await app.state.createCanvas('Set tools');
    const node = app.addQuestion('Find a study of tools.');
    app.state.apply({
      type: 'edit-node',
      nodeId: node,
      patch: { tools: ['scholarly-search'], modelSet: { models: ['local/m', 'local/m2'], samples: 1, temperature: 0 } },
    });
    app.state.apply({ type: 'set-canvas-tools', allowed: true });
    provider.script(
      { toolCalls: [{ id: 'c1', name: 'scholarly_search', input: { query: 'tools' } }] },
      { toolCalls: [{ id: 'c1', name: 'scholarly_search', input: { query: 'tools' } }] },
      { text: 'Found it.' },
      { text: 'Found it.' },
    );
    expect(await app.state.askSet(node)).toMatchObject({ answers: 2, failed: 0 });
    const versions = (app.graph.nodes.get(node) as QuestionNode).versions;
    // The two answers run at once, so which takes which scripted step varies: two calls ran in all, and each has its
    // event naming the version that keeps it.
    const toolEvents = app.graph.events.filter((event) => event.op === 'tool-call');
    expect(toolEvents).toHaveLength(2);
    for (const version of versions)
      expect(toolEvents.filter((event) => event.meta.versionId === version.id)).toHaveLength(
        version.toolCalls?.length ?? 0,
      );
    expect(JSON.stringify(toolEvents)).not.toContain('Study');
    await app.close();
  });

  it('a node’s tools are not offered while its canvas does not allow tools (the default)', async () => {
    const app = await new TestApp(server, `ask-tools-blocked-${Math.random()}`).start();
    await app.state.createCanvas('Blocked tools');
    const node = app.addQuestion('Find a study of tools.');
    app.state.apply({ type: 'edit-node', nodeId: node, patch: { model: 'local/m', tools: ['scholarly-search'] } });
    provider.requests.length = 0;
    crossref.queries.length = 0;
    provider.script({ text: 'No tools offered.' });
    expect(await app.state.ask(node)).toBe(true);
    expect(JSON.stringify(provider.requests[0]!.body)).not.toContain('scholarly_search');
    expect(crossref.queries).toHaveLength(0);
    await app.close();
  });
});
