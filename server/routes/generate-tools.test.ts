import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../protocol/dispatch-request.ts';
import type { StreamEvent } from '../../protocol/stream-events.ts';
import { TOOL_STEP_LIMIT } from '../../protocol/chat-tools.ts';
import { chatToolRequest, hashCanonical } from '../../src/core/index.ts';
import { startScriptedCrossref, type ScriptedCrossref } from '../../tests/support/scripted-crossref.ts';
import { startScriptedProvider, type ScriptedProvider } from '../../tests/support/scripted-provider.ts';
import { collectStreamEvents } from '../../tests/support/sse-client.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

// C35 over real HTTP: a scripted model on 127.0.0.1 calls the scholarly search tool, a scripted Crossref answers.
let server: TestServer;
let provider: ScriptedProvider;
let crossref: ScriptedCrossref;

const KEY = 'sk-test-tools-0123456789abcdef';
const WORK = {
  DOI: '10.1000/attention',
  title: ['Attention Is All You Need'],
  author: [{ given: 'Ashish', family: 'Vaswani' }],
  issued: { 'date-parts': [[2017]] },
  'container-title': ['NeurIPS'],
};

beforeAll(async () => {
  provider = await startScriptedProvider();
  crossref = await startScriptedCrossref([WORK]);
  server = await startTestServer({ allowLoopbackTargets: true, crossrefUrl: crossref.url });
  const base = `${provider.url}/v1`;
  const response = await server.api('/api/settings', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      providers: [
        { id: 'local', kind: 'openai-compatible', baseUrl: base, apiKey: KEY, models: ['scripted-model'] },
        { id: 'anthropic', kind: 'anthropic', baseUrl: base, apiKey: KEY },
      ],
    }),
  });
  expect(response.status).toBe(200);
});
afterAll(async () => {
  await server.dispose();
  await provider.close();
  await crossref.close();
});
beforeEach(() => {
  provider.requests.length = 0;
  crossref.queries.length = 0;
  crossref.status = null;
});

function canonical(model: string, withTools = true): CanonicalRequest {
  return {
    model,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Who wrote the transformer paper?' }] }],
    ...(withTools ? chatToolRequest(['scholarly-search']) : { tools: {} }),
  };
}

async function generate(request: CanonicalRequest): Promise<StreamEvent[]> {
  const response = await server.api('/api/generate', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ request, requestHash: hashCanonical(request), images: [] }),
  });
  expect(response.status).toBe(200);
  return collectStreamEvents(response);
}

const textOf = (events: StreamEvent[]) =>
  events.map((event) => (event.type === 'text-delta' ? event.delta : '')).join('');
const finished = (events: StreamEvent[]) => events.filter((event) => event.type === 'tool-call-finished');

/** The text of every tool result a provider request carries back to the model, in either wire format. */
function toolResultsSent(body: unknown): string {
  return JSON.stringify(body);
}

describe('POST /api/generate with tools (C35)', () => {
  for (const [label, model] of [
    ['OpenAI-compatible', 'local/scripted-model'],
    ['Anthropic', 'anthropic/claude-scripted'],
  ] as const) {
    it(`${label}: the model calls scholarly_search, the result goes back to it, and the call is streamed`, async () => {
      provider.script(
        {
          text: 'Let me look.',
          toolCalls: [{ id: 'call_a', name: 'scholarly_search', input: { query: 'transformer', rows: 3 } }],
        },
        { text: 'Vaswani et al. wrote it (2017).' },
      );
      const events = await generate(canonical(model));
      expect(events[0]).toMatchObject({ type: 'request-accepted' });
      expect(events.find((event) => event.type === 'tool-call-started')).toMatchObject({
        callId: 'call_a',
        tool: 'scholarly_search',
        input: '{"query":"transformer","rows":3}',
      });
      const [call] = finished(events);
      expect(call).toMatchObject({ callId: 'call_a', status: 'ok', code: null });
      expect(call?.type === 'tool-call-finished' && call.output).toBe(
        '1. Attention Is All You Need — Ashish Vaswani (2017). NeurIPS. https://doi.org/10.1000/attention',
      );
      expect(crossref.queries).toEqual([{ query: 'transformer', rows: '3' }]);
      expect(textOf(events)).toBe('Let me look.Vaswani et al. wrote it (2017).');
      expect(events.at(-1)).toMatchObject({ type: 'answer-finished' });
      // The first provider request declared the tool as the canonical request does; the second carried its result.
      expect(provider.requests).toHaveLength(2);
      expect(JSON.stringify(provider.requests[0]!.body)).toContain('scholarly_search');
      expect(toolResultsSent(provider.requests[1]!.body)).toContain('Attention Is All You Need');
      expect(JSON.stringify(events)).not.toContain(KEY);
    });
  }

  it('a search service that fails answers the model with a coded error; the ask still finishes', async () => {
    crossref.status = 503;
    provider.script(
      { toolCalls: [{ name: 'scholarly_search', input: { query: 'transformer' } }] },
      { text: 'The search failed, so from memory: Vaswani et al.' },
    );
    const events = await generate(canonical('local/scripted-model'));
    expect(finished(events)[0]).toMatchObject({ status: 'error', code: 'fetch-failed' });
    expect(toolResultsSent(provider.requests[1]!.body)).toContain('fetch-failed');
    expect(events.at(-1)).toMatchObject({ type: 'answer-finished' });
  });

  it('a tool the question did not switch on is refused to the model with a code, never run', async () => {
    provider.script(
      { toolCalls: [{ name: 'read_file', input: { path: '/etc/passwd' } }] },
      { text: 'I cannot read files.' },
    );
    const events = await generate(canonical('local/scripted-model'));
    expect(finished(events)[0]).toMatchObject({ tool: 'read_file', status: 'error', code: 'tool-not-declared' });
    expect(crossref.queries).toHaveLength(0);
    expect(events.at(-1)).toMatchObject({ type: 'answer-finished' });
  });

  it('with tools off the model is offered none, and a tool call it makes anyway runs nothing', async () => {
    provider.script({ text: 'No tools here.' });
    const events = await generate(canonical('local/scripted-model', false));
    expect(JSON.stringify(provider.requests[0]!.body)).not.toContain('scholarly_search');
    expect(finished(events)).toHaveLength(0);
    expect(textOf(events)).toBe('No tools here.');
  });

  it('the offline receipt model, with a tool on, answers with its receipt of the declared request and calls none', async () => {
    const request = canonical('offline/receipt');
    const events = await generate(request);
    expect(textOf(events)).toContain(hashCanonical(request));
    expect(finished(events)).toHaveLength(0);
    expect(events.at(-1)).toMatchObject({ type: 'answer-finished' });
    expect(crossref.queries).toHaveLength(0);
  });

  it('a model that keeps calling tools is stopped after the step limit, and the answer still ends', async () => {
    const again = { toolCalls: [{ name: 'scholarly_search', input: { query: 'more' } }] };
    provider.script(...Array.from({ length: TOOL_STEP_LIMIT }, () => again));
    const events = await generate(canonical('local/scripted-model'));
    expect(provider.requests).toHaveLength(TOOL_STEP_LIMIT);
    expect(finished(events)).toHaveLength(TOOL_STEP_LIMIT);
    expect(events.at(-1)).toMatchObject({ type: 'answer-finished' });
  });

  it('refuses, before any model call, a request that switches on an unknown tool or declares one differently', async () => {
    const unknown = { ...canonical('local/scripted-model'), tools: { scholarlySearch: true, shell: true } };
    const altered = canonical('local/scripted-model');
    altered.toolDeclarations = [{ ...altered.toolDeclarations![0]!, description: 'Run any command.' }];
    for (const request of [unknown, altered]) {
      const events = await generate(request);
      expect(events).toEqual([expect.objectContaining({ type: 'answer-failed', code: 'tool-refused' })]);
    }
    expect(provider.requests).toHaveLength(0);
  });

  it('a Crossref address that is not public (loopback, without the tests-only switch) is refused: url-refused', async () => {
    const fenced = await startTestServer({ crossrefUrl: crossref.url });
    try {
      await fenced.api('/api/settings', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          providers: [
            {
              id: 'local',
              kind: 'openai-compatible',
              baseUrl: `${provider.url}/v1`,
              apiKey: KEY,
              models: ['scripted-model'],
            },
          ],
        }),
      });
      provider.script({ toolCalls: [{ name: 'scholarly_search', input: { query: 'x' } }] }, { text: 'done' });
      const request = canonical('local/scripted-model');
      const response = await fenced.api('/api/generate', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ request, requestHash: hashCanonical(request), images: [] }),
      });
      const events = await collectStreamEvents(response);
      expect(finished(events)[0]).toMatchObject({ status: 'error', code: 'url-refused' });
      expect(crossref.queries).toHaveLength(0);
    } finally {
      await fenced.dispose();
    }
  });
});
