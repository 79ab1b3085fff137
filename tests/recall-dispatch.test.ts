import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_RECALL_SETTING, type QuestionNode } from '../protocol/index.ts';
import { emptyCanvasDocument, sha256Hex, TestCanvas } from '../src/core/index.ts';
import { startScriptedProvider, type ScriptedProvider, type ScriptedReply } from './support/index.ts';
import { withAtlasServer } from './support/atlas-server.ts';
import { recallRequestFor } from '../src/core/recall/index.ts';
import { modelFor, plannedRequest } from '../src/ui/store/planned-request.ts';
import { TestApp } from '../src/ui/store/test-app.ts';

const CLAUDE_REPO = '/tmp/realsessions/out/claude/basic-tools/repo';
const atlas = withAtlasServer({ prefix: 'weft-recall-dispatch-' });

const questionNode = (app: TestApp, nodeId: string) => app.graph.nodes.get(nodeId) as QuestionNode;

/** C9 + C16: the recall block is part of what is previewed, sent, hashed, committed and snapshotted. */
describe('the recall block at dispatch', () => {
  it('rides the ask; preview hash = commit hash; a struck item is gone from the next request', async () => {
    const app = await new TestApp(atlas.server, `recall-dispatch-${Math.random()}`, { recall: true }).start();
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
    // As the panel's preview does: the canvas is saved first (the server reads recall's scope from the saved record).
    await app.state.flush();
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

  it('asks before a full reach not confirmed yet; declined, nothing is sent', async () => {
    const app = await new TestApp(atlas.server, `recall-full-${Math.random()}`, { recall: true }).start();
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

/**
 * The judge prefers the oldest variant (number 1), which only a full reach reads (a light reach reads the 40 newest),
 * so the full plan orders its excerpts unlike the light one; a batch without it gets an even spread.
 */
function preferFirstVariant(body: unknown): ScriptedReply {
  const text = JSON.stringify(body);
  if (!text.includes('Which of these past excerpts help answer')) return { text: 'An answer.' };
  const lines = [...text.matchAll(/c(\d+): ([^\\]*)/g)];
  const preferred = lines.find((line) => line[2]!.includes('number 1 did'))?.[1];
  const preference = Object.fromEntries(
    lines.map((line) => [`c${line[1]}`, preferred ? (line[1] === preferred ? 0.9 : 0.001) : 1 / lines.length]),
  );
  return { text: JSON.stringify(preference) };
}

const judgeRequests = (provider: ScriptedProvider) =>
  provider.requests.filter((request) => JSON.stringify(request.body).includes('Which of these past excerpts'));

describe('a confirmed full reach (C16 + C9)', () => {
  const judged = withAtlasServer({ prefix: 'weft-recall-full-', server: { judgeTimeoutMs: 2000 } });
  let provider: ScriptedProvider;
  beforeAll(async () => {
    provider = await startScriptedProvider();
    provider.replyFor = preferFirstVariant;
    const saved = await judged.server.api('/api/settings', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        providers: [{ id: 'judge', kind: 'openai-compatible', baseUrl: `${provider.url}/v1`, models: ['small'] }],
        judgeModelId: 'judge/small',
      }),
    });
    expect(saved.status).toBe(200);
    // More excerpts in the folder than a light reach reads (40), so the full reach is another plan.
    const canvas = new TestCanvas({
      idPrefix: 'many-n',
      document: emptyCanvasDocument({
        id: 'canvas-many',
        name: 'Greet notes',
        workingDirectory: CLAUDE_REPO,
        createdAt: 1,
      }),
    });
    for (let index = 1; index <= 45; index += 1) {
      const node = canvas.addQuestion(`Which greet variant number ${index} did we try?`);
      canvas.answer(node, `Variant ${index} of greet returns a template string with suffix ${index}.`);
    }
    await judged.server.context.canvases.write('canvas-many', canvas.document(), { baseRevision: null });
  });
  afterAll(async () => {
    await provider.close();
  });

  it('the preview shows the confirmed full plan, and the ask sends those bytes without asking the judge again', async () => {
    const confirmations: string[] = [];
    const app = await new TestApp(judged.server, `recall-full-judged-${Math.random()}`, {
      recall: true,
      confirmFull: (message) => (confirmations.push(message), true),
    }).start();
    const recall = app.recall!;
    await app.state.createCanvas('Full reach, judged');
    app.state.apply({ type: 'set-agent-settings', workingDirectory: CLAUDE_REPO, guard: 'ask' });
    const nodeId = app.addQuestion('Which greet variant did we try?');
    app.state.apply({
      type: 'edit-node',
      nodeId,
      patch: { recall: { ...DEFAULT_RECALL_SETTING, enabled: true, reach: 'full' } },
    });
    const node = questionNode(app, nodeId);
    const request = recallRequestFor(app.graph, node, modelFor(app.state, node.model))!;

    // Before confirmation: the light plan, marked as a stand-in (the preview says so), nothing confirmed.
    await app.state.flush();
    recall.entryFor(request);
    await vi.waitFor(() => expect(recall.entryFor(request).state).toBe('ready'), { timeout: 30_000 });
    const standIn = recall.entryFor(request);
    if (standIn.state !== 'ready') throw new Error('not ready');
    expect(standIn.standIn).toBe(true);
    expect(standIn.plan.reach.reach).toBe('light');
    expect(confirmations).toEqual([]);

    // Confirmed once: the full reach is planned (the judge reads all of them) and is what the preview shows.
    const lightAsks = judgeRequests(provider).length;
    const full = (await recall.confirmedFullPlan(request))!;
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]).toMatch(/read \d+ excerpts in 2 requests/);
    expect(full.reach).toMatchObject({ reach: 'full', requests: 2 });
    expect(judgeRequests(provider).length).toBe(lightAsks + 2);
    expect(full.blockHash).not.toBe(standIn.plan.blockHash);
    const shown = recall.entryFor(request);
    expect(shown).toEqual({ state: 'ready', plan: full, standIn: false });
    const preview = plannedRequest(app.state, nodeId, 'chat', undefined, null, full.block)!;

    // The ask sends the same bytes: preview hash = commit hash; no second confirmation, no second judging.
    expect(await app.state.ask(nodeId)).toBe(true);
    const version = questionNode(app, nodeId).versions.at(-1)!;
    expect(version.requestHash).toBe(preview.built.requestHash);
    expect(app.graph.events.filter((event) => event.op === 'commit').at(-1)!.meta.requestHash).toBe(
      preview.built.requestHash,
    );
    expect(version.recall?.blockHash).toBe(full.blockHash);
    expect(confirmations).toHaveLength(1);
    expect(judgeRequests(provider).length).toBe(lightAsks + 2);
    const sent = provider.requests.at(-1)!;
    expect(JSON.stringify(sent.body)).toContain(JSON.stringify(full.block).slice(1, 200));
  });
});

describe('the recall preview after the canvas changes', () => {
  it('is planned again once invalidated, so it shows the turn a sibling just answered', async () => {
    const app = await new TestApp(atlas.server, `recall-invalidate-${Math.random()}`, { recall: true }).start();
    const recall = app.recall!;
    await app.state.createCanvas('Invalidate');
    app.state.apply({ type: 'set-agent-settings', workingDirectory: CLAUDE_REPO, guard: 'ask' });
    const asked = app.addQuestion('Which numbat colony did we count?');
    app.state.apply({
      type: 'edit-node',
      nodeId: asked,
      patch: { recall: { ...DEFAULT_RECALL_SETTING, enabled: true } },
    });
    const request = () => recallRequestFor(app.graph, questionNode(app, asked), modelFor(app.state, null))!;
    const ready = async () => {
      await vi.waitFor(() => expect(recall.entryFor(request()).state).toBe('ready'));
      const entry = recall.entryFor(request());
      return entry.state === 'ready' ? entry.plan : null;
    };
    await app.state.flush();
    const before = (await ready())!;
    expect(before.block ?? '').not.toContain('Dryandra');

    // A sibling beside the asked node is answered and saved: the shown plan is now out of date.
    const sibling = app.addQuestion('Is the numbat colony in Dryandra woodland?');
    expect(await app.state.ask(sibling)).toBe(true);
    await app.state.flush();
    expect(recall.entryFor(request())).toMatchObject({ state: 'ready', plan: { blockHash: before.blockHash } });

    const epoch = recall.view.getState().epoch;
    recall.invalidate();
    expect(recall.view.getState().epoch).toBe(epoch + 1);
    // As the panel's hook does on a new epoch: fetched again, the old plan shown until the new one arrives.
    recall.refresh(request());
    expect(recall.entryFor(request())).toMatchObject({ state: 'ready', plan: { blockHash: before.blockHash } });
    await vi.waitFor(() =>
      expect(recall.entryFor(request())).not.toMatchObject({ plan: { blockHash: before.blockHash } }),
    );
    const after = (await ready())!;
    expect(after.block).toContain('Dryandra');
  });
});
