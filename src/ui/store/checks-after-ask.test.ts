import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { QuestionNode } from '../../../protocol/index.ts';
import { CHECK_EVENT_OP, rubricRequest, versionCheckResults } from '../../core/index.ts';
import { startServerWithProvider, type ScriptedProvider, type TestServer } from '../../../tests/support/index.ts';
import { TestApp } from './test-app.ts';

/**
 * Issue 31, part 3, over loopback: a set's answers are scored as they arrive — the checks that need no model when
 * the version is added, a rubric by the decision model (a scripted judge) right after — and every result is an event.
 */
let server: TestServer;
let provider: ScriptedProvider;
let dispose = async () => {};
const KEY = 'sk-test-checks-0123456789';

beforeAll(async () => {
  ({ server, provider, dispose } = await startServerWithProvider({
    models: ['alpha', 'beta', 'judge'],
    apiKey: KEY,
    settings: { judgeModelId: 'local/judge' },
  }));
  provider.byModel = { alpha: { text: 'The answer is 4 [1].' }, beta: { text: 'Five, I believe.' } };
  // The judge passes an answer that cites a bracketed source.
  provider.replyFor = (body) => {
    const { model, messages } = body as { model: string; messages: unknown };
    if (model !== 'judge') return null;
    const cites = /Answer:\\n[^"]*\[\d+\]/.test(JSON.stringify(messages));
    return { text: JSON.stringify({ verdict: cites ? 'pass' : 'fail', reason: cites ? 'Cites [1].' : 'No source.' }) };
  };
});
afterAll(async () => {
  await dispose();
});

describe('checks on a model set’s answers', () => {
  it('scores each answer with every check, the rubric by the judge, and keeps the judge’s request hash', async () => {
    const app = await new TestApp(server, `checks-${crypto.randomUUID()}`).start();
    await app.state.createCanvas('Checks');
    const node = app.addQuestion('What is 2 + 2?');
    const checks = [
      { id: 'is-4', kind: 'number' as const, value: 4, tolerance: 0 },
      { id: 'cites', kind: 'rubric' as const, rubric: 'Cites a source' },
    ];
    expect(app.state.apply({ type: 'edit-node', nodeId: node, patch: { checks } })).toBe(true);
    expect(
      app.state.apply({
        type: 'edit-node',
        nodeId: node,
        patch: { modelSet: { models: ['local/alpha', 'local/beta'], samples: 1, temperature: 0 } },
      }),
    ).toBe(true);
    const asking = app.state.askSet(node);
    // The progress chip says what runs: a set's ask, not a Replay.
    expect(app.state.replay).toMatchObject({ running: true, job: { kind: 'set', models: 2 }, total: 2 });
    expect(await asking).toMatchObject({ answers: 2, failed: 0 });
    expect(app.state.replay).toMatchObject({ running: false });
    const rubricEvents = () =>
      (app.state.graph?.events ?? []).filter((event) => event.op === CHECK_EVENT_OP && event.meta.kind === 'rubric');
    await vi.waitFor(() => expect(rubricEvents()).toHaveLength(2), { timeout: 5000 });

    const graph = app.state.graph!;
    const question = graph.nodes.get(node) as QuestionNode;
    const byModel = Object.fromEntries(
      question.versions.map((version) => [
        version.model,
        versionCheckResults(graph, node, version.id).map((result) => [result.outcome, result.detail]),
      ]),
    );
    expect(byModel).toEqual({
      'local/alpha': [
        ['pass', 'read 4'],
        ['pass', 'Cites [1].'],
      ],
      'local/beta': [
        ['fail', 'no number'],
        ['fail', 'No source.'],
      ],
    });
    // Each rubric event names the judge and the hash of the request the server sent it (core builds both sides).
    for (const event of rubricEvents()) {
      const version = question.versions.find((candidate) => candidate.id === event.objectId)!;
      const expected = rubricRequest(
        { question: 'What is 2 + 2?', answer: version.text, rubric: 'Cites a source' },
        'local/judge',
      );
      expect(event.meta).toMatchObject({ judgeModel: 'local/judge', requestHash: expected.requestHash });
    }
    // Two answers reached the provider, and exactly two rubric judgements (one per answer).
    const bodies = provider.requests.map((request) => request.body as { model: string; messages: unknown });
    expect(
      bodies
        .filter((body) => body.model !== 'judge')
        .map((body) => body.model)
        .sort(),
    ).toEqual(['alpha', 'beta']);
    expect(bodies.filter((body) => JSON.stringify(body.messages).includes('against one rubric'))).toHaveLength(2);
    // And nothing else: no stale decision about the first-run canvas's pre-written answers (opened at boot).
    expect(bodies.filter((body) => JSON.stringify(body.messages).includes('Decision:'))).toEqual([]);
    expect(bodies).toHaveLength(4);
    await app.close();
  });
});
