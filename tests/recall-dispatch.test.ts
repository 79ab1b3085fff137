import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RECALL_SETTING, type QuestionNode } from '../protocol/index.ts';
import { sha256Hex } from '../src/core/index.ts';
import { startTestServer, type TestServer } from './support/index.ts';
import { closeAtlasService } from '../server/atlas/atlas-registry.ts';
import { copyAtlasFixtures, type AtlasFixtures } from '../server/atlas/testing/atlas-fixtures.ts';
import { recallRequestFor } from '../src/ui/recall/recall-request.ts';
import { modelFor, plannedRequest } from '../src/ui/store/planned-request.ts';
import { TestApp } from '../src/ui/store/test-app.ts';

const CLAUDE_REPO = '/tmp/realsessions/out/claude/basic-tools/repo';
const savedRoots = process.env.WEFT_SESSION_ROOTS;
let fixtures: AtlasFixtures;
let server: TestServer;
beforeAll(async () => {
  fixtures = copyAtlasFixtures('weft-recall-dispatch-');
  process.env.WEFT_SESSION_ROOTS = fixtures.rootsVariable;
  server = await startTestServer({ home: fixtures.weftHome });
});
afterAll(async () => {
  await closeAtlasService(server.context);
  await server?.dispose();
  fixtures.dispose();
  if (savedRoots === undefined) delete process.env.WEFT_SESSION_ROOTS;
  else process.env.WEFT_SESSION_ROOTS = savedRoots;
});

const questionNode = (app: TestApp, nodeId: string) => app.graph.nodes.get(nodeId) as QuestionNode;

/** C9 + C16: the recall block is part of what is previewed, sent, hashed, committed and snapshotted. */
describe('the recall block at dispatch', () => {
  it('rides the ask; preview hash = commit hash; a struck item is gone from the next request', async () => {
    const app = await new TestApp(server, `recall-dispatch-${Math.random()}`, { recall: true }).start();
    const recall = app.recall!;
    await app.state.createCanvas('Recall canvas');
    app.state.apply({ type: 'set-agent-settings', workingDirectory: CLAUDE_REPO, guard: 'ask' });
    const nodeId = app.addQuestion('How was the greet function in hello.ts written?');
    // Off by default: no request, nothing recalled.
    expect(recallRequestFor(app.graph, questionNode(app, nodeId), {})).toBeNull();
    app.state.apply({
      type: 'edit-node',
      nodeId,
      patch: { recall: { ...DEFAULT_RECALL_SETTING, enabled: true } },
    });
    const node = questionNode(app, nodeId);
    const request = recallRequestFor(app.graph, node, modelFor(app.state, node.model))!;
    const previewPlan = await recall.plan(request);
    expect(previewPlan.items.length).toBeGreaterThan(0);
    const preview = plannedRequest(app.state, nodeId, 'chat', undefined, null, previewPlan.block)!;
    const recallIndex = preview.built.messageSources.findIndex(
      (source) => source.kind === 'late' && source.source === 'recall',
    );
    const recallPart = preview.built.request.messages[recallIndex]!.content[0]!;
    expect(recallPart).toEqual({ type: 'text', text: previewPlan.block });
    expect(sha256Hex(previewPlan.block!)).toBe(previewPlan.blockHash);

    expect(await app.state.ask(nodeId)).toBe(true);
    const version = questionNode(app, nodeId).versions.at(-1)!;
    expect(version.requestHash).toBe(preview.built.requestHash);
    const commit = app.graph.events.filter((event) => event.op === 'commit').at(-1)!;
    expect(commit.meta.requestHash).toBe(preview.built.requestHash);
    expect(version.recall).toEqual({
      blockHash: previewPlan.blockHash,
      terms: previewPlan.terms,
      items: previewPlan.items,
    });
    const event = app.graph.events.find((each) => each.op === 'recall')!;
    expect(event).toMatchObject({ objectId: nodeId, meta: { blockHash: previewPlan.blockHash, scope: 'project' } });
    // Metadata only: no recalled words in the log.
    expect(JSON.stringify(app.graph.events)).not.toContain('greet(name)');

    // Strike the first item: the next run's request leaves it out, and the plan lists it as struck.
    const struck = previewPlan.items[0]!;
    app.state.apply({
      type: 'edit-node',
      nodeId,
      patch: { recall: { ...questionNode(app, nodeId).recall!, struck: [struck.id] } },
    });
    expect(await app.state.ask(nodeId)).toBe(true);
    const next = questionNode(app, nodeId).versions.at(-1)!;
    expect(next.recall?.items.map((item) => item.id) ?? []).not.toContain(struck.id);
    expect(next.requestHash).not.toBe(version.requestHash);
    const again = await recall.plan(
      recallRequestFor(app.graph, questionNode(app, nodeId), modelFor(app.state, node.model))!,
    );
    expect(again.omitted).toContainEqual(expect.objectContaining({ id: struck.id, reason: 'struck' }));
  });

  it('asks before a full reach, every time; declined, nothing is sent', async () => {
    const app = await new TestApp(server, `recall-full-${Math.random()}`, { recall: true }).start();
    await app.state.createCanvas('Full reach');
    app.state.apply({ type: 'set-agent-settings', workingDirectory: CLAUDE_REPO, guard: 'ask' });
    const nodeId = app.addQuestion('How was the greet function written?');
    app.state.apply({
      type: 'edit-node',
      nodeId,
      patch: { recall: { ...DEFAULT_RECALL_SETTING, enabled: true, reach: 'full' } },
    });
    expect(await app.state.ask(nodeId)).toBe(false);
    expect(questionNode(app, nodeId).versions).toEqual([]);
    expect(app.graph.events.some((event) => event.op === 'commit')).toBe(false);
    expect(app.lastToast()).toMatchObject({ code: 'recall-full-declined' });
  });
});
