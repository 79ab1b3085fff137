import 'fake-indexeddb/auto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RECALL_SETTING,
  readContextBundle,
  type QuestionNode,
  type RecallItem,
  type ToolDeclaration,
} from '../protocol/index.ts';
import { emptyCanvasDocument, TestCanvas } from '../src/core/index.ts';
import { recallRequestFor } from '../src/core/recall/index.ts';
import { modelFor, plannedRequest } from '../src/ui/store/planned-request.ts';
import { TestApp } from '../src/ui/store/test-app.ts';
import { runWeftInProcess } from '../cli/run-weft.ts';
import { withAtlasServer } from './support/atlas-server.ts';

// The real recorded sessions: Claude Code ran the greet() task in this folder, Codex and Pi in theirs.
const CLAUDE_REPO = '/tmp/realsessions/out/claude/basic-tools/repo';
const atlas = withAtlasServer({ prefix: 'weft-compile-recall-' });

async function weft(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const run = await runWeftInProcess(argv, {
    cwd: atlas.fixtures.weftHome,
    env: { WEFT_HOME: atlas.fixtures.weftHome, WEFT_SESSION_ROOTS: atlas.fixtures.rootsVariable },
  });
  return { code: run.code, out: run.stdout, err: run.stderr };
}

describe('weft compile carries the recall block (C16 + C9)', () => {
  it('prints the request and hash the app previews and commits for a node with recall on', async () => {
    const canvas = new TestCanvas({
      idPrefix: 'cr-n',
      document: emptyCanvasDocument({
        id: 'canvas-compile-recall',
        name: 'Compile recall',
        workingDirectory: CLAUDE_REPO,
        createdAt: 1,
      }),
    });
    const target = canvas.addQuestion('How was the greet function in hello.ts written?');
    canvas.edit(target, { recall: { ...DEFAULT_RECALL_SETTING, enabled: true } });
    const document = canvas.document();
    const file = join(atlas.fixtures.weftHome, 'plan.weft.json');
    await writeFile(file, JSON.stringify(document));

    const app = await new TestApp(atlas.server, `compile-recall-${Math.random()}`, { recall: true }).start();
    expect(await app.state.importDocument(document)).toBe(document.canvas.id);
    const node = app.graph.nodes.get(target) as QuestionNode;
    const previewPlan = await app.recall!.plan(recallRequestFor(app.graph, node, modelFor(app.state, node.model))!);
    expect(previewPlan.items.map((item) => item.runner)).toContain('claude-code');
    const preview = plannedRequest(app.state, target, 'chat', undefined, null, previewPlan.block)!;

    const cli = await weft(['compile', file, '--node', target, '--no-memory', '--json']);
    expect(cli.code, cli.err).toBe(0);
    const printed = JSON.parse(cli.out) as {
      requestHash: string;
      request: unknown;
      recall: { sent: boolean; blockHash: string | null; items: RecallItem[] };
    };
    expect(printed.recall).toMatchObject({ sent: true, blockHash: previewPlan.blockHash });
    expect(printed.recall.items).toEqual(previewPlan.items);
    expect(JSON.stringify(printed.request)).toBe(JSON.stringify(preview.built.request));
    expect(printed.requestHash).toBe(preview.built.requestHash);

    // The commit the app writes when it sends the request carries the same hash.
    expect(await app.state.ask(target)).toBe(true);
    const commit = app.graph.events.filter((event) => event.op === 'commit' && event.objectId === target).at(-1)!;
    expect(commit.meta.requestHash).toBe(printed.requestHash);

    // --no-recall leaves the block out and says so: the hash is then the request without it.
    const bare = await weft(['compile', file, '--node', target, '--no-memory', '--no-recall']);
    expect(bare.out).toContain('recall  not sent: left out (--no-recall)');
    expect(bare.out.split('\n')[0]).toBe(`request ${plannedRequest(app.state, target)!.built.requestHash}`);
    await app.close();
  }, 90_000);

  it('--bundle writes the bundle of that request (recall block and tools in it): its hash, and verify says intact', async () => {
    const echo: ToolDeclaration = {
      name: 'echo__echo',
      description: 'Echoes its text.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    };
    const canvas = new TestCanvas({
      idPrefix: 'cb-n',
      document: emptyCanvasDocument({
        id: 'canvas-compile-bundle',
        name: 'Compile bundle',
        workingDirectory: CLAUDE_REPO,
        createdAt: 1,
      }),
    });
    canvas.apply({ type: 'set-canvas-tools', allowed: true });
    const target = canvas.addQuestion('How was the greet function in hello.ts written?');
    canvas.edit(target, {
      recall: { ...DEFAULT_RECALL_SETTING, enabled: true },
      tools: ['scholarly-search'],
      mcpTools: [echo],
    });
    const document = canvas.document();
    const file = join(atlas.fixtures.weftHome, 'bundle.weft.json');
    await writeFile(file, JSON.stringify(document));

    const cli = await weft(['compile', file, '--node', target, '--no-memory', '--bundle', '--out', 'b.json', '--json']);
    expect(cli.code, cli.err).toBe(0);
    const printed = JSON.parse(cli.out) as { requestHash: string; recall: { sent: boolean; blockHash: string } };
    expect(printed.recall.sent).toBe(true);
    const read = readContextBundle(JSON.parse(await readFile(join(atlas.fixtures.weftHome, 'b.json'), 'utf8')));
    if (!read.ok) throw new Error(read.error.message);
    const bundle = read.bundle;
    expect(bundle.requestHash).toBe(printed.requestHash);
    const recallIndex = bundle.sources.findIndex((source) => source.layer === 'recall');
    expect(recallIndex).toBe(bundle.messages.length - 2);
    expect(bundle.messages[recallIndex]!.content[0]).toMatchObject({ text: expect.stringContaining('claude-code') });
    expect(bundle.toolDeclarations?.map((declaration) => declaration.name)).toEqual(['scholarly_search', 'echo__echo']);

    // The app's preview of the same node (recall plan included) shows that hash.
    const app = await new TestApp(atlas.server, `compile-bundle-${Math.random()}`, { recall: true }).start();
    expect(await app.state.importDocument(document)).toBe(document.canvas.id);
    const node = app.graph.nodes.get(target) as QuestionNode;
    const previewPlan = await app.recall!.plan(recallRequestFor(app.graph, node, modelFor(app.state, node.model))!);
    expect(previewPlan.blockHash).toBe(printed.recall.blockHash);
    expect(plannedRequest(app.state, target, 'chat', undefined, null, previewPlan.block)!.built.requestHash).toBe(
      bundle.requestHash,
    );
    await app.close();

    // An honest bundle of an ask that offers tools is intact; an edited declaration is not.
    const verified = await weft(['bundle', 'verify', 'b.json', '--json']);
    expect(verified.code, verified.out).toBe(0);
    expect(JSON.parse(verified.out)).toMatchObject({ intact: true, computedHash: printed.requestHash });
    const edited = { ...bundle, toolDeclarations: [bundle.toolDeclarations![0]!, { ...echo, description: 'Other.' }] };
    await writeFile(join(atlas.fixtures.weftHome, 'edited.json'), JSON.stringify(edited));
    expect(await weft(['bundle', 'verify', 'edited.json'])).toMatchObject({ code: 1 });
  }, 90_000);

  it('refuses a full reach the person did not confirm, with a coded error', async () => {
    const canvas = new TestCanvas({
      idPrefix: 'full-n',
      document: emptyCanvasDocument({
        id: 'canvas-compile-full',
        name: 'Full',
        workingDirectory: CLAUDE_REPO,
        createdAt: 1,
      }),
    });
    const target = canvas.addQuestion('How was the greet function written?');
    canvas.edit(target, { recall: { ...DEFAULT_RECALL_SETTING, enabled: true, reach: 'full' } });
    const file = join(atlas.fixtures.weftHome, 'full.weft.json');
    await writeFile(file, JSON.stringify(canvas.document()));
    const refused = await weft(['compile', file, '--node', target, '--no-memory']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('confirm it first');
    const confirmed = await weft(['compile', file, '--node', target, '--no-memory', '--confirm-full']);
    expect(confirmed.code, confirmed.err).toBe(0);
    expect(confirmed.out).toContain('recall  sent: ');
  }, 60_000);
});
