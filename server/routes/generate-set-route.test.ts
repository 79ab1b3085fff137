import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GenerateSetRequest, SetStreamEvent } from '../../protocol/index.ts';
import { documentFromGraph, emptyCanvasDocument, generateSetBody, setRequests } from '../../src/core/index.ts';
import { TestCanvas } from '../../src/core/test-canvas.ts';
import { startScriptedProvider, type ScriptedProvider } from '../../tests/support/scripted-provider.ts';
import { readSetStreamEvents } from '../../tests/support/sse-client.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

/**
 * Issue 31: `POST /api/generate-set` on loopback, against the real server and a scripted OpenAI-compatible provider
 * that answers per model. A set's answers go through the same hand-over as `/api/generate` (hash → accept →
 * commit), and anything wrong with the set refuses all of it before a single model call.
 */
let server: TestServer;
let provider: ScriptedProvider;
const KEY = 'sk-test-generate-set-0123456789';
const MODELS = ['local/alpha', 'local/beta', 'local/gamma'];
/** Each model's scripted answer (the Stop test holds them open, then puts these back). */
const ANSWERS = {
  alpha: { text: 'Alpha: four.' },
  beta: { text: 'Beta says 4.' },
  gamma: { text: 'Gamma: 2 + 2 = 4.' },
};

beforeAll(async () => {
  provider = await startScriptedProvider();
  server = await startTestServer();
  const base = `${provider.url}/v1`;
  const response = await settings({
    providers: [
      { id: 'local', kind: 'openai-compatible', baseUrl: base, apiKey: KEY, models: ['alpha', 'beta', 'gamma'] },
      { id: 'openai', kind: 'openai', baseUrl: base, apiKey: KEY },
    ],
  });
  expect(response.status).toBe(200);
  provider.byModel = { ...ANSWERS };
});
afterAll(async () => {
  await server.dispose();
  await provider.close();
});
beforeEach(() => {
  provider.requests.length = 0;
});

function settings(update: unknown): Promise<Response> {
  return server.api('/api/settings', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(update),
  });
}

/** A saved canvas with a note and a question below an answered question; the set asks the last one. */
async function savedCanvas(id: string) {
  const canvas = new TestCanvas({
    document: emptyCanvasDocument({ id, name: id, workingDirectory: null, createdAt: 1 }),
    idPrefix: `${id}-`,
  });
  const parent = canvas.addQuestion('Which unit is mass measured in?');
  canvas.answer(parent, 'Kilograms.');
  const question = canvas.addQuestion('And what is two plus two?');
  canvas.wire(parent, question);
  const note = canvas.addNote('Not a question.');
  const response = await server.api(`/api/canvases/${id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(documentFromGraph(canvas.graph)),
  });
  expect(response.status).toBe(200);
  return { canvas, question, note };
}

async function setOf(id: string, models = MODELS, samples = 2) {
  const { canvas, question, note } = await savedCanvas(id);
  const requests = setRequests(
    canvas.compiled(question),
    { models, samples, temperature: 0.4 },
    { images: false },
    { setId: `${id}-ask` },
  );
  const body = generateSetBody(requests, [], { canvasId: id, nodeId: question });
  return { requests, body, question, note };
}

async function askSet(body: GenerateSetRequest, signal?: AbortSignal): Promise<SetStreamEvent[]> {
  const response = await server.api('/api/generate-set', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  expect(response.status).toBe(200);
  const events: SetStreamEvent[] = [];
  for await (const event of readSetStreamEvents(response)) events.push(event);
  return events;
}

/** The ledger's commits of a set's requests for its canvas (the tests' canvases ask the same requests). */
async function commitsOf(canvasId: string, hashes: readonly string[]) {
  const recorded = await Promise.all([...new Set(hashes)].map((hash) => server.context.commits.recorded(hash)));
  return recorded.flat().filter((commit) => commit.canvasId === canvasId);
}

/** A refused set reached no model and left no commit of its requests on its canvas. */
async function expectNothingDispatched(requests: ReturnType<typeof setRequests>, body: GenerateSetRequest) {
  expect(provider.requests).toHaveLength(0);
  const commits = await commitsOf(
    body.target!.canvasId,
    requests.dispatches.map((dispatch) => dispatch.requestHash),
  );
  expect(commits).toEqual([]);
}

describe('POST /api/generate-set (issue 31)', () => {
  it('3 models × 2 samples: six answers, one context hash, three request hashes, six commits, six identical contexts', async () => {
    const { requests, body, question } = await setOf('set-six');
    const events = await askSet(body);

    const accepted = events.flatMap(({ index, event }) =>
      event.type === 'request-accepted' ? [{ index, event }] : [],
    );
    expect(accepted.map(({ index }) => index).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    for (const { index, event } of accepted) {
      expect(event.requestHash).toBe(requests.dispatches[index!]!.requestHash);
      expect(event.contextHash).toBe(requests.contextHash);
    }
    expect(new Set(accepted.map(({ event }) => event.contextHash)).size).toBe(1);
    expect(new Set(accepted.map(({ event }) => event.requestHash)).size).toBe(3);
    // Each answer streamed to its own index, and each model's answer is its own.
    const textOf = (index: number) =>
      events.map((each) => (each.index === index && each.event.type === 'text-delta' ? each.event.delta : '')).join('');
    expect([0, 1, 2, 3, 4, 5].map(textOf)).toEqual([
      'Alpha: four.',
      'Alpha: four.',
      'Beta says 4.',
      'Beta says 4.',
      'Gamma: 2 + 2 = 4.',
      'Gamma: 2 + 2 = 4.',
    ]);
    expect(events.filter(({ event }) => event.type === 'answer-finished')).toHaveLength(6);
    // The server's ledger: one commit per answer, each with both hashes, the node and its answer's hash.
    const commits = await commitsOf(
      body.target!.canvasId,
      requests.dispatches.map((dispatch) => dispatch.requestHash),
    );
    expect(commits).toHaveLength(6);
    for (const commit of commits) {
      expect(commit).toMatchObject({ contextHash: requests.contextHash, canvasId: 'set-six', nodeId: question });
      expect(commit.answerHash).toMatch(/^[0-9a-f]{64}$/);
    }
    // The provider saw six calls, each model twice at the set's temperature, with byte-identical messages.
    const bodies = provider.requests.map(
      (request) => request.body as { model: string; messages: unknown; temperature: number },
    );
    expect(bodies.map((each) => each.model).sort()).toEqual(['alpha', 'alpha', 'beta', 'beta', 'gamma', 'gamma']);
    expect(new Set(bodies.map((each) => JSON.stringify(each.messages))).size).toBe(1);
    expect(bodies.every((each) => each.temperature === 0.4)).toBe(true);
  });

  it('a tampered request hash refuses the whole set: nothing is dispatched or committed', async () => {
    const { requests, body } = await setOf('set-tampered');
    const tampered = {
      ...body,
      dispatches: body.dispatches.map((each, index) => (index === 3 ? { ...each, requestHash: 'e'.repeat(64) } : each)),
    };
    const events = await askSet(tampered);
    expect(events).toEqual([
      { index: null, event: expect.objectContaining({ type: 'answer-failed', code: 'hash-mismatch' }) },
    ]);
    await expectNothingDispatched(requests, body);
  });

  it('a dispatch whose model was swapped under its hash refuses the whole set', async () => {
    const { requests, body } = await setOf('set-swapped');
    const swapped = {
      ...body,
      dispatches: body.dispatches.map((each, index) => (index === 0 ? { ...each, model: 'local/gamma' } : each)),
    };
    const events = await askSet(swapped);
    expect(events).toEqual([{ index: null, event: expect.objectContaining({ code: 'hash-mismatch' }) }]);
    await expectNothingDispatched(requests, body);
  });

  it('a tampered context (or its hash) refuses the whole set with context-hash-mismatch', async () => {
    const { requests, body } = await setOf('set-context');
    const otherHash = await askSet({ ...body, contextHash: 'f'.repeat(64) });
    expect(otherHash).toEqual([
      { index: null, event: expect.objectContaining({ type: 'answer-failed', code: 'context-hash-mismatch' }) },
    ]);
    // A context changed on its way (a message added) no longer has the hash the client sent.
    const changed = {
      ...body,
      context: {
        ...body.context,
        messages: [
          ...body.context.messages,
          { role: 'user' as const, content: [{ type: 'text' as const, text: 'Also: say yes.' }] },
        ],
      },
    };
    expect(await askSet(changed)).toEqual([
      { index: null, event: expect.objectContaining({ code: 'context-hash-mismatch' }) },
    ]);
    await expectNothingDispatched(requests, body);
  });

  it('refuses a target the stored canvas holds as something other than a question, as /api/generate does', async () => {
    const { requests, body, note } = await setOf('set-target');
    const events = await askSet({ ...body, target: { canvasId: 'set-target', nodeId: note } });
    expect(events).toEqual([
      { index: null, event: expect.objectContaining({ type: 'answer-failed', code: 'dispatch-target-mismatch' }) },
    ]);
    await expectNothingDispatched(requests, body);
  });

  it('refuses a set with an agent lane in it, whatever hashes the client sent', async () => {
    const { requests, body } = await setOf('set-agent', ['local/alpha', 'agent:claude-code'], 1);
    const events = await askSet(body);
    expect(events).toEqual([
      {
        index: null,
        event: expect.objectContaining({ code: 'model-set-refused', message: expect.stringMatching(/agent lane/) }),
      },
    ]);
    await expectNothingDispatched(requests, body);
  });

  it('enforces the per-ask cap from the server’s own settings and prices, not from anything the client sends', async () => {
    const { requests, body } = await setOf('set-cap', ['openai/gpt-4o', 'local/alpha'], 8);
    expect((await settings({ setCapUsd: 0.000_01 })).status).toBe(200);
    try {
      const events = await askSet(body);
      expect(events).toEqual([
        {
          index: null,
          event: expect.objectContaining({ code: 'model-set-refused', message: expect.stringMatching(/cap/) }),
        },
      ]);
      await expectNothingDispatched(requests, body);
    } finally {
      expect((await settings({ setCapUsd: null })).status).toBe(200);
    }
    // Without the cap the same set goes.
    const events = await askSet(body);
    expect(events.filter(({ event }) => event.type === 'answer-finished')).toHaveLength(16);
  });

  it('Stop (the client closing the call) aborts every answer in flight and dispatches no more', async () => {
    const { body } = await setOf('set-stop', MODELS, 4);
    provider.byModel = Object.fromEntries(
      MODELS.map((model) => [model.slice('local/'.length), { text: 'slow', hang: true }]),
    );
    const controller = new AbortController();
    try {
      const response = await server.api('/api/generate-set', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      // One provider, eight at a time: the first eight are in flight, the other four wait.
      await provider.waitForRequests(8);
      controller.abort();
      await response.body?.cancel().catch(() => undefined);
      for (let index = 0; index < 8; index += 1) expect((await provider.waitForEnd(index)).aborted).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(provider.requests).toHaveLength(8);
    } finally {
      provider.byModel = { ...ANSWERS };
    }
  });
});
