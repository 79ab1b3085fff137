import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STALE_MARK, type Graph } from '../../core/index.ts';
import type { QuestionNode } from '../../../protocol/canvas-document.ts';
import { startScriptedProvider, startTestServer, type TestServer } from '../../../tests/support/index.ts';
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
const textOf = (request: ReturnType<typeof plannedRequest>) =>
  request!.built.request.messages
    .flatMap((message) => message.content)
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n');
let databaseCounter = 0;
const freshName = () => `own-question-stale-${databaseCounter++}-${Math.random()}`;

describe('editing a node’s own question (C6)', () => {
  it('marks its answer stale: the count, Replay and the downstream request all follow', async () => {
    const app = await new TestApp(server, freshName()).start();
    await app.state.createCanvas('Own edit');
    const first = app.addQuestion('What is Rayleigh scattering?');
    const second = app.addQuestion('Why is the sky blue?');
    const third = app.addQuestion('And sunsets?');
    app.wire(first, second);
    app.wire(second, third);
    for (const id of [first, second, third]) expect(await app.state.ask(id)).toBe(true);
    expect(app.state.shown.size).toBe(0);
    const oldAnswer = question(app.graph, second).versions[0]!.text;

    app.edit(second, 'Why is the sky blue at noon?');
    expect([...app.state.shown].sort()).toEqual([second, third].sort());
    expect([...app.state.questionEdited]).toEqual([second]);
    // Downstream sends the edited question, then the answer to the old one behind the stale mark.
    expect(textOf(plannedRequest(app.state, third))).toContain(
      `Why is the sky blue at noon?\n${STALE_MARK}\n${oldAnswer}`,
    );

    await app.state.replayStale();
    expect(app.state.replay).toMatchObject({ total: 2, done: 2, running: false });
    expect(question(app.graph, second).versions).toHaveLength(2);
    expect(question(app.graph, second).versions[1]!.question).toBe('Why is the sky blue at noon?');
    expect(app.state.shown.size).toBe(0);
    expect(textOf(plannedRequest(app.state, third))).not.toContain(STALE_MARK);

    // Back to the wording an answer was written for: no mark.
    app.edit(second, 'Why is the sky blue? (draft)');
    expect(app.state.shown.has(second)).toBe(true);
    app.edit(second, 'Why is the sky blue at noon?');
    expect(app.state.shown.has(second)).toBe(false);
    await app.close();
  });

  it('is never judged away: the judge is not asked about it, and an earlier dismissal does not hide it', async () => {
    const judge = await startScriptedProvider();
    judge.setDefault({ text: '{"default": 0.1, "unrelated": 0.9}' });
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

      // Editing the leaf's own question: stale, and the judge is not asked.
      app.edit(downstream, 'So why is the sky blue, in one line?');
      await app.store.runtime.pendingJudgement;
      expect(judge.requests).toHaveLength(0);
      expect(app.state.shown.has(downstream)).toBe(true);
      app.edit(downstream, 'So why is the sky blue?');
      await app.store.runtime.pendingJudgement;
      expect(app.state.shown.has(downstream)).toBe(false);

      // An upstream change the judge dismisses, then the person's own edit: shown whatever the dismissal says.
      app.edit(upstream, 'What is Rayleigh scattering, briefly?');
      await app.store.runtime.pendingJudgement;
      expect(judge.requests).toHaveLength(1);
      expect(app.state.stale.has(downstream)).toBe(true);
      expect(app.state.shown.has(downstream)).toBe(false);
      app.edit(downstream, 'So why is the sky blue, really?');
      await app.store.runtime.pendingJudgement;
      expect(app.state.shown.has(downstream)).toBe(true);
      expect(judge.requests).toHaveLength(1);
      // Once the wording is back, the earlier dismissal applies again.
      app.edit(downstream, 'So why is the sky blue?');
      await app.store.runtime.pendingJudgement;
      expect(app.state.shown.has(downstream)).toBe(false);

      // An upstream change made while the question stands edited is not judged then; once the wording is back it is.
      app.edit(downstream, 'So why is the sky blue, in short?');
      app.edit(upstream, 'What is Rayleigh scattering, in short?');
      await app.store.runtime.pendingJudgement;
      expect(judge.requests).toHaveLength(1);
      expect(app.state.shown.has(downstream)).toBe(true);
      app.edit(downstream, 'So why is the sky blue?');
      await app.store.runtime.pendingJudgement;
      expect(judge.requests).toHaveLength(2);
      expect(app.state.shown.has(downstream)).toBe(false);

      app.edit(downstream, 'So why is the sky blue, really?');
      await app.close();
      // Reopened, every shown answer is looked at afresh: the edited one is still not put to the judge.
      const reopened = await new TestApp(isolated, app.database.name).start();
      await reopened.store.runtime.pendingJudgement;
      expect(reopened.state.shown.has(downstream)).toBe(true);
      expect(judge.requests).toHaveLength(2);
      await reopened.close();
    } finally {
      await isolated.dispose();
      await judge.close();
    }
  });
});
