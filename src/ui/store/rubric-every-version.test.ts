import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { QuestionNode } from '../../../protocol/index.ts';
import { CHECK_EVENT_OP, upstreamSnapshot, versionCheckResults } from '../../core/index.ts';
import { startServerWithProvider, type ScriptedProvider, type TestServer } from '../../../tests/support/index.ts';
import { TestApp } from './test-app.ts';

/**
 * Issue 31, part 3, over loopback: a question's rubric is judged for every new version, whatever path wrote it (here
 * an ask and a version no ask wrote, as the agent lane, an import or a person's edit add them), exactly once — a
 * reload does not judge again — and a version whose judgement never landed (the page closed first) is judged when
 * its canvas is next opened.
 */
let server: TestServer;
let provider: ScriptedProvider;
let dispose = async () => {};

beforeAll(async () => {
  ({ server, provider, dispose } = await startServerWithProvider({
    models: ['alpha', 'judge'],
    apiKey: 'sk-test-rubric-0123456789',
    settings: { judgeModelId: 'local/judge', defaultModelId: 'local/alpha' },
  }));
  provider.byModel = { alpha: { text: 'Paris, per [1].' } };
  provider.replyFor = (body) => {
    const { model, messages } = body as { model: string; messages: unknown };
    if (model !== 'judge') return null;
    const cites = /\[\d+\]/.test(JSON.stringify(messages).split('Answer:')[1] ?? '');
    return { text: JSON.stringify({ verdict: cites ? 'pass' : 'fail', reason: cites ? 'Cites [1].' : 'No source.' }) };
  };
});
afterAll(async () => {
  await dispose();
});

const judgeCalls = () => provider.requests.filter((request) => (request.body as { model: string }).model === 'judge');
const rubricEvents = (app: TestApp) =>
  app.graph.events.filter((event) => event.op === CHECK_EVENT_OP && event.meta.kind === 'rubric');

/** Adds a version no ask wrote (as the agent lane, an import or a person's edit do) and returns its id. */
function addVersion(app: TestApp, nodeId: string, text: string): string {
  const node = app.graph.nodes.get(nodeId) as QuestionNode;
  const id = crypto.randomUUID();
  const added = app.state.apply({
    type: 'add-version',
    nodeId,
    version: {
      id,
      text,
      question: node.question,
      model: 'local/alpha',
      requestHash: null,
      ...upstreamSnapshot(app.graph, nodeId),
      origin: 'manual',
      status: 'complete',
      branchOf: null,
    },
  });
  expect(added).toBe(true);
  return id;
}

describe('rubrics on every new version', () => {
  it('judges an asked version and one no ask wrote, each once; a reload judges nothing again', async () => {
    const name = `rubric-${crypto.randomUUID()}`;
    const app = await new TestApp(server, name).start();
    await app.state.createCanvas('Rubrics');
    const node = app.addQuestion('What is the capital of France?');
    const checks = [{ id: 'cites', kind: 'rubric' as const, rubric: 'Cites a source' }];
    expect(app.state.apply({ type: 'edit-node', nodeId: node, patch: { checks } })).toBe(true);
    const before = judgeCalls().length;

    expect(await app.state.ask(node)).toBe(true);
    const edited = addVersion(app, node, 'Paris.');
    await vi.waitFor(() => expect(rubricEvents(app)).toHaveLength(2), { timeout: 5000 });
    await app.store.runtime.rubricsJudged;
    expect(judgeCalls().length - before).toBe(2);
    const question = app.graph.nodes.get(node) as QuestionNode;
    expect(question.versions.map((version) => versionCheckResults(app.graph, node, version.id)[0]!.outcome)).toEqual([
      'pass',
      'fail',
    ]);
    expect(versionCheckResults(app.graph, node, edited)[0]).toMatchObject({ outcome: 'fail', detail: 'No source.' });
    await app.close();

    // The next page load opens the same canvas: every version already has its verdict, so the judge is not asked.
    const again = await new TestApp(server, name).start();
    expect(again.graph.nodes.has(node)).toBe(true);
    await again.store.runtime.rubricsJudged;
    expect(judgeCalls().length - before).toBe(2);
    expect(rubricEvents(again)).toHaveLength(2);
    expect(versionCheckResults(again.graph, node, edited)[0]).toMatchObject({ outcome: 'fail', detail: 'No source.' });

    // A reworded rubric is a new check: both answers are judged again, once.
    const reworded = [{ id: 'cites', kind: 'rubric' as const, rubric: 'Cites a numbered source' }];
    expect(again.state.apply({ type: 'edit-node', nodeId: node, patch: { checks: reworded } })).toBe(true);
    await vi.waitFor(() => expect(rubricEvents(again)).toHaveLength(4), { timeout: 5000 });
    await again.store.runtime.rubricsJudged;
    expect(judgeCalls().length - before).toBe(4);
    expect(JSON.stringify(judgeCalls().at(-1)!.body)).toContain('Cites a numbered source');
    await again.close();
  });

  it('a version whose judgement never landed (the page closed first) is judged when its canvas is next opened', async () => {
    const name = `rubric-${crypto.randomUUID()}`;
    const app = await new TestApp(server, name).start();
    await app.state.createCanvas('Rubrics');
    const node = app.addQuestion('What is the capital of France?');
    expect(
      app.state.apply({
        type: 'edit-node',
        nodeId: node,
        patch: { checks: [{ id: 'cites', kind: 'rubric', rubric: 'Cites a source' }] },
      }),
    ).toBe(true);
    // This page's judge never answers (it is closed before).
    app.store.api.rubricCheck = () => new Promise(() => undefined);
    const version = addVersion(app, node, 'Paris [2].');
    await app.close();
    const before = judgeCalls().length;

    const again = await new TestApp(server, name).start();
    await vi.waitFor(() => expect(rubricEvents(again)).toHaveLength(1), { timeout: 5000 });
    expect(judgeCalls().length - before).toBe(1);
    expect(versionCheckResults(again.graph, node, version)[0]).toMatchObject({ outcome: 'pass', detail: 'Cites [1].' });
    await again.close();
  });
});
