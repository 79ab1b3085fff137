import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PlaqueRequest, PlaqueResponse } from '../../protocol/index.ts';
import { startScriptedProvider, type ScriptedProvider } from '../../tests/support/scripted-provider.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

let server: TestServer;
let provider: ScriptedProvider;

const ANSWER =
  'Dexie wraps IndexedDB in promises. Schemas are versioned. Each version lists its tables. ' +
  'An upgrade function moves old records. Tests run on fake-indexeddb.';
const LADDER = {
  topic: 'versioned schemas',
  takeaway: 'Dexie keeps versioned schemas with upgrade functions',
  reason: 'Most sentences are about versions.',
  sentences: [2, 4, 3],
};

async function settings(body: unknown): Promise<void> {
  const response = await server.api('/api/settings', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  provider = await startScriptedProvider();
  server = await startTestServer();
  await settings({
    providers: [
      {
        id: 'local',
        kind: 'openai-compatible',
        baseUrl: `${provider.url}/v1`,
        apiKey: 'sk-plaque-test-0123456789',
        models: ['answerer', 'judge'],
      },
    ],
    plaqueWriter: 'model',
  });
});
afterAll(async () => {
  await server.dispose();
  await provider.close();
});
beforeEach(() => {
  provider.requests.length = 0;
});

function ask(overrides: Partial<PlaqueRequest> = {}): Promise<Response> {
  const body: PlaqueRequest = {
    question: 'How does Dexie handle schema changes?',
    answer: ANSWER,
    model: 'local/answerer',
    lane: 'chat',
    thread: ['Storage: IndexedDB is the browser storage we use'],
    ...overrides,
  };
  return server.api('/api/plaque', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function plaqueOf(overrides: Partial<PlaqueRequest> = {}): Promise<PlaqueResponse['plaque']> {
  const response = await ask(overrides);
  expect(response.status).toBe(200);
  return ((await response.json()) as PlaqueResponse).plaque;
}

function requestedModel(index: number): unknown {
  return (provider.requests[index]?.body as { model?: unknown }).model;
}

describe('POST /api/plaque (C32)', () => {
  it('the answering model writes the ladder; the abstract is its chosen sentences verbatim, in answer order', async () => {
    provider.script({ text: `Here you go:\n${JSON.stringify(LADDER)}` });
    const plaque = await plaqueOf();
    expect(plaque).toMatchObject({
      topic: 'versioned schemas',
      takeaway: LADDER.takeaway,
      source: 'model',
      model: 'local/answerer',
      sentences: [2, 3, 4],
      abstract: ['Schemas are versioned.', 'Each version lists its tables.', 'An upgrade function moves old records.'],
    });
    expect(plaque.refusal).toBeUndefined();
    expect(requestedModel(0)).toBe('answerer');
    // The model was shown the thread's plaques and the numbered sentences.
    const prompt = JSON.stringify(provider.requests[0]!.body);
    expect(prompt).toContain('Storage: IndexedDB is the browser storage we use');
    expect(prompt).toContain('5. Tests run on fake-indexeddb.');
    // The log holds no words of the answer or the plaque.
    const logged = server.logger.lines.filter((line) => line.includes('"plaque"')).join('\n');
    expect(logged).toContain('"source":"model"');
    expect(logged).not.toContain('versioned');
  });

  it('#29: the model is asked for a summary type and conclusiveness and they are kept; a missing one is the rule’s', async () => {
    provider.script({ text: JSON.stringify({ ...LADDER, summaryType: 'procedure', conclusiveness: 'open' }) });
    expect(await plaqueOf()).toMatchObject({ source: 'model', summaryType: 'procedure', conclusiveness: 'open' });
    expect(JSON.stringify(provider.requests[0]!.body)).toContain('conclusiveness');
    provider.script({ text: JSON.stringify({ ...LADDER, summaryType: 'sonnet' }) });
    expect(await plaqueOf()).toMatchObject({ source: 'model', summaryType: 'finding', conclusiveness: 'settled' });
  });

  it('a ladder whose topic is not in its takeaway is refused with its code, and the rule writes the plaque', async () => {
    provider.script({ text: JSON.stringify({ ...LADDER, topic: 'IndexedDB promises' }) });
    const plaque = await plaqueOf();
    expect(plaque).toMatchObject({
      source: 'rule',
      model: null,
      refusal: 'topic-not-in-takeaway',
      takeaway: 'Dexie wraps IndexedDB in promises.',
      sentences: [1, 2, 3],
    });
    expect(plaque.takeaway).toContain(plaque.topic);
  });

  it('a sentence number the answer does not have is refused', async () => {
    provider.script({ text: JSON.stringify({ ...LADDER, sentences: [1, 2, 12] }) });
    expect((await plaqueOf()).refusal).toBe('sentence-missing');
  });

  it('a provider error leaves the plaque to the rule, marked no-answer', async () => {
    provider.script({ status: 500, errorMessage: 'boom' });
    expect(await plaqueOf()).toMatchObject({ source: 'rule', refusal: 'no-answer' });
  });

  it('the offline receipt calls no model without a decision model: the rule, saying what was asked', async () => {
    const answer = 'Offline receipt: no model was called. This is what a model would have received.\n\nMessages: 1';
    const plaque = await plaqueOf({ model: 'offline/receipt', answer });
    expect(plaque).toMatchObject({ source: 'rule', model: null, takeaway: 'How does Dexie handle schema changes?' });
    expect(plaque.refusal).toBeUndefined();
    expect(provider.requests).toHaveLength(0);
  });

  it('an agent’s answer is summarised by the configured decision model', async () => {
    await settings({ judgeModelId: 'local/judge' });
    try {
      provider.script({ text: JSON.stringify(LADDER) });
      const plaque = await plaqueOf({ model: 'claude-code/agent', lane: 'agent' });
      expect(plaque).toMatchObject({ source: 'model', model: 'local/judge' });
      expect(requestedModel(0)).toBe('judge');
    } finally {
      await settings({ judgeModelId: null });
    }
  });

  it('with the rule chosen in Settings (the default), no model is called at all', async () => {
    await settings({ plaqueWriter: 'rule' });
    try {
      const plaque = await plaqueOf();
      expect(plaque).toMatchObject({ source: 'rule', model: null, takeaway: 'Dexie wraps IndexedDB in promises.' });
      expect(plaque.refusal).toBeUndefined();
      expect(provider.requests).toHaveLength(0);
    } finally {
      await settings({ plaqueWriter: 'model' });
    }
  });

  it('refuses an empty question and answer with a coded error, and a malformed body', async () => {
    const empty = await ask({ question: '', answer: '', model: 'offline/receipt' });
    expect(empty.status).toBe(422);
    expect(((await empty.json()) as { error: { code: string } }).error.code).toBe('nothing-to-summarise');
    const malformed = await server.api('/api/plaque', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ answer: 3 }),
    });
    expect(malformed.status).toBe(400);
  });
});
