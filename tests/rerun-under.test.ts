import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuestionNode } from '../protocol/index.ts';
import { answerValue, dependencyOrder, rerunPlan, runComparison, runVersion } from '../src/core/index.ts';
import { TestApp } from '../src/ui/store/test-app.ts';
import { startServerWithProvider, type ScriptedProvider, type TestServer } from './support/index.ts';

/**
 * Issue 31, part 4, end to end over loopback: a 50-question study answered by one scripted model is re-run under a
 * second through the real server (one HTTP client, one handshake). Each question answers "the largest answer above
 * it, plus one"; the second model adds two at Q20, so the run diverges there and — only if every step compiled from
 * the run's own upstream answers — everywhere below it.
 */
let server: TestServer;
let provider: ScriptedProvider;
let dispose = async () => {};
const KEY = 'sk-test-rerun-0123456789';
const SIZE = 50;
/** The question whose answer the second model gets wrong; held open (hang) when `hangAt` names it. */
const DIVERGES_AT = 20;
let hangAt: number | null = null;

/** The text of every message the provider was handed, in order. */
function messagesOf(body: unknown): string[] {
  const wire = body as { messages: { content: string | { type: string; text?: string }[] }[] };
  return wire.messages.map((message) =>
    typeof message.content === 'string' ? message.content : message.content.map((part) => part.text ?? '').join('\n'),
  );
}

beforeAll(async () => {
  ({ server, provider, dispose } = await startServerWithProvider({ models: ['alpha', 'beta'], apiKey: KEY }));
  provider.replyFor = (body) => {
    const texts = messagesOf(body);
    const question = Number(/^Q(\d+):/.exec(texts[texts.length - 1] ?? '')?.[1]);
    const model = (body as { model: string }).model;
    if (model === 'beta' && question === hangAt) return { text: 'The answer is', hang: true };
    let above = 0;
    for (const text of texts.slice(0, -1))
      for (const match of text.matchAll(/answer is (\d+)/g)) above = Math.max(above, Number(match[1]));
    const step = model === 'beta' && question === DIVERGES_AT ? 2 : 1;
    return { text: `${model} reads ${above}, so the answer is ${above + step}.` };
  };
});
afterAll(async () => {
  await dispose();
});

/** A study of 50 questions asked under local/alpha: Q(i) hangs below Q(i-1), and every fifth also below Q(i-3). */
async function study(): Promise<{ app: TestApp; ids: string[] }> {
  const app = await new TestApp(server, `rerun-${crypto.randomUUID()}`).start();
  await app.state.createCanvas('Study');
  const ids: string[] = [];
  for (let index = 1; index <= SIZE; index += 1) {
    const id = app.addQuestion(`Q${index}: what is the largest answer above, plus one?`);
    expect(app.state.apply({ type: 'edit-node', nodeId: id, patch: { model: 'local/alpha' } })).toBe(true);
    if (index > 1) expect(app.wire(ids[index - 2]!, id)).toBe(true);
    if (index > 3 && index % 5 === 0) expect(app.wire(ids[index - 4]!, id)).toBe(true);
    ids.push(id);
  }
  for (const id of ids) expect(await app.state.ask(id)).toBe(true);
  return { app, ids };
}

function selection(app: TestApp): Map<string, string | null> {
  const selected = new Map<string, string | null>();
  for (const [id, node] of app.graph.nodes) if (node.kind === 'question') selected.set(id, node.currentVersionId);
  return selected;
}

describe('re-run a study under another model (issue 31)', () => {
  it('regenerates 50 questions upstream first from the run’s own answers, keeps the selection, finds the divergence', async () => {
    const { app, ids } = await study();
    const before = selection(app);
    const plan = rerunPlan(app.graph, new Set(ids), { model: 'local/beta', runName: 'beta run' });
    expect(plan).toMatchObject({ count: SIZE, refusal: null });
    expect(plan.steps.map((step) => step.nodeId)).toEqual(ids);
    const sentBefore = provider.requests.length;

    const result = await app.state.rerunUnder(new Set(ids), 'local/beta', 'beta run');
    expect(result).toEqual({ runName: 'beta run', completed: SIZE, failed: 0, skipped: 0 });

    // Sent in dependency order, each under the override model.
    const sent = provider.requests.slice(sentBefore);
    expect(sent.map((request) => (request.body as { model: string }).model)).toEqual(Array(SIZE).fill('beta'));
    expect(sent.map((request) => Number(/^Q(\d+):/.exec(messagesOf(request.body).at(-1)!)?.[1]))).toEqual(
      ids.map((_, index) => index + 1),
    );
    // Q21 was compiled from the run's Q20 (21), not the person's (20).
    expect(messagesOf(sent[DIVERGES_AT]!.body).join('\n')).toContain('beta reads 19, so the answer is 21.');

    // One new version per question, tagged with the run, never selected: the person's selection is untouched.
    expect(selection(app)).toEqual(before);
    for (const [index, id] of ids.entries()) {
      const node = app.graph.nodes.get(id) as QuestionNode;
      expect(node.versions).toHaveLength(2);
      const version = runVersion(node, 'beta run')!;
      expect(version).toMatchObject({ model: 'local/beta', run: { name: 'beta run', model: 'local/beta' } });
      expect(answerValue(version.text)).toBe(index + 1 < DIVERGES_AT ? index + 1 : index + 2);
      expect(node.currentVersionId).not.toBe(version.id);
    }
    // Every request of the run was committed (event on the canvas with its hash).
    const runHashes = new Set(ids.map((id) => runVersion(app.graph.nodes.get(id), 'beta run')!.requestHash));
    const commits = app.graph.events.filter(
      (event) => event.op === 'commit' && runHashes.has(event.meta.requestHash as string),
    );
    expect(commits).toHaveLength(SIZE);

    const comparison = runComparison(app.graph, 'beta run', { numberOf: (text) => answerValue(text) });
    expect(comparison.model).toBe('local/beta');
    expect(comparison.rows.map((row) => row.nodeId)).toEqual(ids);
    expect(comparison.firstDivergence).toBe(ids[DIVERGES_AT - 1]);
    expect(comparison.diverged).toBe(SIZE - DIVERGES_AT + 1);
    expect(comparison.rows[DIVERGES_AT - 2]).toMatchObject({ numberChanged: false, diverged: false });
    expect(comparison.rows[DIVERGES_AT - 1]).toMatchObject({
      original: { number: DIVERGES_AT, model: 'local/alpha' },
      rerun: { number: DIVERGES_AT + 1, model: 'local/beta' },
      numberChanged: true,
      checksChanged: null,
      diverged: true,
    });
    // Checks, when present, are compared by verdict: a check that fails only on the run is a divergence.
    const checksOf = (_nodeId: string, version: { text: string }) => [
      { checkId: 'says-beta', passed: version.text.startsWith('beta') },
    ];
    const byChecks = runComparison(app.graph, 'beta run', { checksOf });
    expect(byChecks.firstDivergence).toBe(ids[0]);
    expect(byChecks.rows.every((row) => row.checksChanged === true && row.numberChanged === null)).toBe(true);

    // The same name is not run twice: under the same model nothing is left, under another the answers would mix.
    expect(rerunPlan(app.graph, new Set(ids), { model: 'local/beta', runName: 'beta run' }).refusal).toMatch(
      /nothing left to run/,
    );
    expect(rerunPlan(app.graph, new Set(ids), { model: 'local/alpha', runName: 'beta run' }).refusal).toMatch(
      /already on this canvas under local\/beta/,
    );
    await app.close();
  }, 120_000);

  it('Stop mid-run leaves a consistent canvas: a prefix of the run, nothing half-written, the selection untouched', async () => {
    const { app, ids } = await study();
    const before = selection(app);
    const eventsBefore = app.graph.events.length;
    hangAt = 10;
    try {
      const sentBefore = provider.requests.length;
      const running = app.state.rerunUnder(new Set(ids), 'local/beta', 'stopped run');
      await provider.waitForRequests(sentBefore + 10);
      expect(app.state.replay).toMatchObject({
        running: true,
        total: SIZE,
        job: { kind: 'rerun', model: 'local/beta' },
      });
      app.state.stopReplay();
      const result = await running;
      expect(result).toMatchObject({ completed: 9, failed: 1, skipped: 40 });
      expect(provider.requests.length).toBe(sentBefore + 10);
      // The held step was aborted at the provider, not left streaming.
      expect((await provider.waitForEnd(sentBefore + 9)).aborted).toBe(true);
    } finally {
      hangAt = null;
    }
    expect(selection(app)).toEqual(before);
    expect(app.graph.events.length).toBeGreaterThan(eventsBefore);
    for (const [index, id] of ids.entries()) {
      const node = app.graph.nodes.get(id) as QuestionNode;
      const version = runVersion(node, 'stopped run');
      if (index < 9) expect(version?.status).toBe('complete');
      else expect(version).toBeNull();
      expect(node.versions).toHaveLength(index < 9 ? 2 : 1);
    }
    const comparison = runComparison(app.graph, 'stopped run', { numberOf: (text) => answerValue(text) });
    expect(comparison.rows.map((row) => row.nodeId)).toEqual(dependencyOrder(app.graph, new Set(ids.slice(0, 9))));
    expect(comparison.firstDivergence).toBeNull();
    expect(app.state.replay).toMatchObject({ running: false });

    // Started again with the same name and model, the run continues: only the 41 questions it had not answered, the
    // first of them (Q10) compiled from the run's own Q9, and none of the 9 asked again.
    const rest = rerunPlan(app.graph, new Set(ids), { model: 'local/beta', runName: 'stopped run' });
    expect(rest).toMatchObject({ refusal: null, resumed: 9, count: SIZE - 9 });
    const sentBefore = provider.requests.length;
    expect(await app.state.rerunUnder(new Set(ids), 'local/beta', 'stopped run')).toMatchObject({
      completed: SIZE - 9,
      failed: 0,
      skipped: 0,
    });
    const continued = provider.requests.slice(sentBefore).map((request) => messagesOf(request.body));
    expect(continued).toHaveLength(SIZE - 9);
    expect(continued[0]!.at(-1)).toMatch(/^Q10:/);
    expect(continued[0]!.join('\n')).toContain('beta reads 8, so the answer is 9.');
    for (const [index, id] of ids.entries()) {
      const node = app.graph.nodes.get(id) as QuestionNode;
      expect(node.versions.filter((version) => version.run?.name === 'stopped run')).toHaveLength(1);
      expect(answerValue(runVersion(node, 'stopped run')!.text)).toBe(index + (index + 1 >= DIVERGES_AT ? 2 : 1));
    }
    expect(selection(app)).toEqual(before);
    await app.close();
  }, 120_000);
});
