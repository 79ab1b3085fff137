import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../protocol/dispatch-request.ts';
import type { StreamEvent } from '../../protocol/stream-events.ts';
import { chatToolRequest, hashCanonical } from '../../src/core/index.ts';
import { startScriptedArxiv, type ScriptedArxiv } from '../../tests/support/scripted-arxiv.ts';
import type { ScriptedProvider } from '../../tests/support/scripted-provider.ts';
import {
  startScriptedSemanticScholar,
  type ScriptedSemanticScholar,
} from '../../tests/support/scripted-semantic-scholar.ts';
import { collectStreamEvents } from '../../tests/support/sse-client.ts';
import { startServerWithProvider } from '../../tests/support/server-with-provider.ts';
import type { TestServer } from '../../tests/support/test-server.ts';

// C35 over real HTTP: the arXiv and Semantic Scholar tools run in the server's tool loop against scripted services.
let server: TestServer;
let provider: ScriptedProvider;
let dispose = async () => {};
let arxiv: ScriptedArxiv;
let scholar: ScriptedSemanticScholar;

beforeAll(async () => {
  arxiv = await startScriptedArxiv([
    {
      id: '1706.03762v7',
      title: 'Attention Is All You Need',
      authors: ['Ashish Vaswani'],
      published: '2017-06-12T00:00:00Z',
    },
  ]);
  scholar = await startScriptedSemanticScholar([
    {
      paperId: 'p1',
      title: 'BERT',
      authors: [{ name: 'Jacob Devlin' }],
      year: 2019,
      externalIds: { DOI: '10.1/bert' },
    },
  ]);
  ({ server, provider, dispose } = await startServerWithProvider({
    models: ['scripted-model'],
    apiKey: 'sk-test-scholarly-0123456789',
    server: { allowLoopbackTargets: true, arxivUrl: arxiv.url, semanticScholarUrl: scholar.url },
  }));
});
afterAll(async () => {
  await dispose();
  await arxiv.close();
  await scholar.close();
});

async function generate(request: CanonicalRequest): Promise<StreamEvent[]> {
  const response = await server.api('/api/generate', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ request, requestHash: hashCanonical(request), images: [] }),
  });
  expect(response.status).toBe(200);
  return collectStreamEvents(response);
}

describe('POST /api/generate with the arXiv and Semantic Scholar tools (C35)', () => {
  it('both tools, switched on, are declared to the model, run when it calls them, and their results go back', async () => {
    provider.script(
      {
        toolCalls: [
          { id: 'call_x', name: 'arxiv_search', input: { query: 'transformer', rows: 1 } },
          { id: 'call_s', name: 'semantic_scholar_search', input: { query: 'bert' } },
        ],
      },
      { text: 'Found both.' },
    );
    const request: CanonicalRequest = {
      model: 'local/scripted-model',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Find the papers.' }] }],
      ...chatToolRequest(['arxiv-search', 'semantic-scholar-search']),
    };
    const events = await generate(request);
    const calls = events.filter((event) => event.type === 'tool-call-finished');
    expect(calls).toEqual([
      expect.objectContaining({
        callId: 'call_x',
        tool: 'arxiv_search',
        status: 'ok',
        output: '1. Attention Is All You Need — Ashish Vaswani (2017). https://arxiv.org/abs/1706.03762v7',
      }),
      expect.objectContaining({
        callId: 'call_s',
        tool: 'semantic_scholar_search',
        status: 'ok',
        output: '1. BERT — Jacob Devlin (2019). https://doi.org/10.1/bert',
      }),
    ]);
    expect(arxiv.queries).toEqual([{ searchQuery: 'all:transformer', maxResults: '1' }]);
    expect(scholar.queries.map((query) => query.query)).toEqual(['bert']);
    const offered = JSON.stringify(provider.requests[0]!.body);
    expect(offered).toContain('arxiv_search');
    expect(offered).toContain('semantic_scholar_search');
    expect(offered).not.toContain('"scholarly_search"');
    expect(JSON.stringify(provider.requests[1]!.body)).toContain('https://doi.org/10.1/bert');
    expect(events.at(-1)).toMatchObject({ type: 'answer-finished' });
  });
});
