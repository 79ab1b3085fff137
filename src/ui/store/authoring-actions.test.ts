import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONCLUSION_QUESTION, SYNTHESIS_QUESTION, type Graph } from '../../core/index.ts';
import type { QuestionNode } from '../../../protocol/canvas-document.ts';
import {
  startScriptedProvider,
  startTestServer,
  type ScriptedProvider,
  type TestServer,
} from '../../../tests/support/index.ts';
import { plannedRequest } from './planned-request.ts';
import { TestApp } from './test-app.ts';

let server: TestServer;
let provider: ScriptedProvider;
beforeAll(async () => {
  [server, provider] = await Promise.all([startTestServer(), startScriptedProvider()]);
});
afterAll(async () => {
  await server?.dispose();
  await provider?.close();
});

let counter = 0;
const question = (graph: Graph, id: string) => graph.nodes.get(id) as QuestionNode;
const wiresInto = (graph: Graph, id: string) =>
  [...graph.wires.values()].filter((wire) => wire.to === id).map((wire) => `${wire.from}:${wire.kind}`);

async function openApp(): Promise<TestApp> {
  const app = await new TestApp(server, `authoring-${counter++}-${Math.random()}`).start();
  await app.state.createCanvas('Authoring');
  return app;
}

describe('merge, condense and fan-out (C33)', () => {
  it('merge makes one synthesis question wired solid from each selected node, one undo step', async () => {
    const app = await openApp();
    const left = app.addQuestion('What did Darwin observe?');
    const right = app.addQuestion('What did Wallace observe?');
    await app.state.ask(left);
    await app.state.ask(right);
    app.state.setSelection([left, right]);
    const pastBefore = app.state.past.length;
    const merged = app.state.mergeSelection()!;
    expect(question(app.graph, merged).question).toBe(SYNTHESIS_QUESTION);
    expect(wiresInto(app.graph, merged).sort()).toEqual([`${left}:solid`, `${right}:solid`].sort());
    expect(app.graph.events.at(-1)).toMatchObject({ op: 'merge', objectId: merged, meta: { sources: 2 } });
    expect(app.state.selectedNodeIds).toEqual([merged]);
    // Both answers reach the synthesis request.
    const sent = JSON.stringify(plannedRequest(app.state, merged)!.built.request.messages);
    expect(sent).toContain('What did Darwin observe?');
    expect(sent).toContain('What did Wallace observe?');
    expect(app.state.past.length).toBe(pastBefore + 1);
    app.state.undo();
    expect(app.graph.nodes.has(merged)).toBe(false);
    await app.close();
  });

  it('merge refuses fewer than two nodes with a coded message and changes nothing', async () => {
    const app = await openApp();
    const only = app.addQuestion('Alone?');
    app.state.setSelection([only]);
    const size = app.graph.nodes.size;
    expect(app.state.mergeSelection()).toBeNull();
    expect(app.lastToast()?.code).toBe('invalid');
    expect(app.graph.nodes.size).toBe(size);
    await app.close();
  });

  it('condense puts a conclusion above a chain, wired from its last node so the whole chain is its context', async () => {
    const app = await openApp();
    const ids = ['Why do leaves fall?', 'What triggers abscission?', 'How is it timed?'].map((text) =>
      app.addQuestion(text),
    );
    app.wire(ids[0]!, ids[1]!);
    app.wire(ids[1]!, ids[2]!);
    // Selection order does not matter; the chain order does.
    app.state.setSelection([ids[2]!, ids[0]!, ids[1]!]);
    const conclusion = app.state.condenseSelection()!;
    const node = question(app.graph, conclusion);
    expect(node.question).toBe(CONCLUSION_QUESTION);
    expect(wiresInto(app.graph, conclusion)).toEqual([`${ids[2]}:solid`]);
    const positions = ids.map((id) => app.graph.nodes.get(id)!.position.y);
    expect(node.position.y).toBeLessThan(Math.min(...positions));
    const sent = JSON.stringify(plannedRequest(app.state, conclusion)!.built.request.messages);
    for (const text of ['Why do leaves fall?', 'What triggers abscission?', 'How is it timed?'])
      expect(sent).toContain(text);
    expect(app.graph.events.at(-1)).toMatchObject({ op: 'condense', objectId: conclusion });
    await app.close();
  });

  it('condense refuses a selection that is not one chain', async () => {
    const app = await openApp();
    const first = app.addQuestion('One?');
    const second = app.addQuestion('Two?');
    app.state.setSelection([first, second]);
    expect(app.state.condenseSelection()).toBeNull();
    expect(app.lastToast()?.message).toContain('chain');
    await app.close();
  });

  it('fan-out with the offline receipt model proposes by rule; the edited list becomes nodes wired from the source', async () => {
    const app = await openApp();
    const source = app.addQuestion('How do tides form and why are there two a day?');
    const proposal = (await app.state.proposeSubQuestions(source))!;
    expect(proposal.path).toBe('rule');
    expect(proposal.questions).toEqual(['How do tides form?', 'Why are there two a day?']);
    const single = app.addQuestion('Why is the sea salty?');
    const angles = (await app.state.proposeSubQuestions(single))!;
    expect(angles.questions).toHaveLength(4);
    expect(angles.questions[1]).toBe('What evidence bears on: Why is the sea salty?');
    // The person edits the list: drops one, rewrites one, adds one (and leaves a blank line).
    const edited = [angles.questions[0]!, 'Where does the salt come from?', '', 'Does salinity vary by ocean?'];
    const made = app.state.fanOut(single, edited, angles.path, angles.questions);
    expect(made).toHaveLength(3);
    expect(made.map((id) => question(app.graph, id).question)).toEqual([edited[0], edited[1], edited[3]]);
    // C14: the angle kept as proposed is Weft's words; the lines the person wrote are theirs.
    expect(made.map((id) => question(app.graph, id).questionAuthor)).toEqual(['app', 'person', 'person']);
    for (const id of made) expect(wiresInto(app.graph, id)).toEqual([`${single}:solid`]);
    expect(app.graph.events.at(-1)).toMatchObject({
      op: 'fan-out',
      objectId: single,
      meta: { count: 3, path: 'rule' },
    });
    await app.close();
  });

  it('fan-out asks the node’s model through the chat path (commit event, instruction first) and reads its lines', async () => {
    const app = await openApp();
    expect(
      await app.state.saveSettings({
        providers: [{ id: 'scripted', kind: 'openai-compatible', baseUrl: `${provider.url}/v1`, models: ['model'] }],
        defaultModelId: 'scripted/model',
      }),
    ).toBe(true);
    provider.script({
      text: 'Here are some:\n1. What is a tide?\n2. What does the Moon do?\n- What does the Sun do?\nThanks.',
    });
    const before = provider.requests.length;
    const source = app.addQuestion('How do tides work?');
    const proposal = (await app.state.proposeSubQuestions(source))!;
    expect(proposal).toEqual({
      path: 'model',
      model: 'scripted/model',
      questions: ['What is a tide?', 'What does the Moon do?', 'What does the Sun do?'],
    });
    expect(provider.requests.length).toBe(before + 1);
    const sent = JSON.stringify(provider.requests.at(-1)!.body);
    expect(sent).toContain('Propose between three and six sub-questions');
    expect(sent).toContain('How do tides work?');
    expect(app.graph.events.filter((event) => event.op === 'commit')).toHaveLength(1);
    // C14: kept as proposed, a sub-question is the model's, and its version freezes that when asked; the
    // person's rewrite of one makes it theirs.
    const kept = [proposal.questions[0]!, 'What does the Moon do to the sea near me?'];
    const [asIs, rewritten] = app.state.fanOut(source, kept, proposal.path, proposal.questions);
    expect([asIs, rewritten].map((id) => question(app.graph, id!).questionAuthor)).toEqual(['model', 'person']);
    provider.script({ text: 'A tide is the rise and fall of the sea.' });
    await app.state.ask(asIs!);
    app.edit(asIs!, 'What is a tide, in one line?');
    expect(question(app.graph, asIs!).questionAuthor).toBe('person');
    expect(question(app.graph, asIs!).versions.map((version) => version.questionAuthor)).toEqual(['model']);
    // An answer with no usable lines falls back to the rule.
    provider.script({ text: 'I would rather not.' });
    expect((await app.state.proposeSubQuestions(source))!.path).toBe('rule');
    await app.close();
  });
});

describe('fan-out proposals under a role (C29 with C33)', () => {
  it('send one system message, the role then the instruction; a role conflict sends nothing and says so', async () => {
    const app = await openApp();
    expect(
      await app.state.saveSettings({
        providers: [{ id: 'scripted', kind: 'openai-compatible', baseUrl: `${provider.url}/v1`, models: ['model'] }],
        defaultModelId: 'scripted/model',
      }),
    ).toBe(true);
    const source = app.addQuestion('How do tides work?');
    app.state.apply({
      type: 'edit-node',
      nodeId: source,
      patch: { role: { mode: 'set', text: 'You are a geologist.' } },
    });
    provider.script({ text: '1. What is a tide?\n2. What does the Moon do?' });
    expect((await app.state.proposeSubQuestions(source))!.path).toBe('model');
    const body = provider.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
    const system = body.messages.filter((message) => message.role === 'system');
    expect(system).toHaveLength(1);
    expect(body.messages[0]!.role).toBe('system');
    const text = JSON.stringify(system[0]!.content);
    expect(text).toContain('You are a geologist.');
    expect(text.indexOf('You are a geologist.')).toBeLessThan(text.indexOf('Propose between three and six'));

    // Two parents with different roles and no pick: nothing is sent, the person is told to pick.
    const other = app.addQuestion('Why do seas rise?');
    app.state.apply({ type: 'edit-node', nodeId: other, patch: { role: { mode: 'set', text: 'You are a poet.' } } });
    const join = app.addQuestion('What links them?');
    app.wire(source, join);
    app.wire(other, join);
    const before = provider.requests.length;
    expect(await app.state.proposeSubQuestions(join)).toBeNull();
    expect(provider.requests.length).toBe(before);
    expect(app.lastToast()).toMatchObject({ code: 'role-conflict' });
    await app.close();
  });
});

describe('branch from a passage (C30)', () => {
  it('makes a question wired from the source that carries the passage, stored with its offsets', async () => {
    const app = await openApp();
    const source = app.addQuestion('Explain photosynthesis.');
    await app.state.ask(source);
    const answer = question(app.graph, source).versions[0]!;
    const text = answer.text.slice(0, 20);
    const branch = app.state.branchFromPassage(source, { start: 0, end: 20, text })!;
    const node = question(app.graph, branch);
    expect(node.passage).toEqual({ sourceId: source, versionId: answer.id, start: 0, end: 20, text });
    expect(wiresInto(app.graph, branch)).toEqual([`${source}:solid`]);
    app.edit(branch, 'What does this mean?');
    const last = plannedRequest(app.state, branch)!.built.request.messages.at(-1)!;
    expect(last.content[0]).toEqual({
      type: 'text',
      text: `[Regarding this passage: "${text}"]\n\nWhat does this mean?`,
    });
    // A second passage of the same answer gets its own spot beside the source, not the first branch's.
    const second = app.state.branchFromPassage(source, { start: 20, end: 30, text: answer.text.slice(20, 30) })!;
    const [first, next] = [branch, second].map((id) => app.graph.nodes.get(id)!.position);
    expect(next).not.toEqual(first);
    expect(Math.abs(next!.y - first!.y)).toBeGreaterThanOrEqual(170);
    await app.close();
  });
});
