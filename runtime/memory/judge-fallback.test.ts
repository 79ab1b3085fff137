import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryJudgeRequest, MemoryJudgeResponse, MemoryStateResponse } from '../../protocol/index.ts';
import { startScriptedProvider, type ScriptedProvider } from '../../tests/support/scripted-provider.ts';
import { StoredExchanges } from '../../tests/support/stored-exchange.ts';
import { acceptProfileFactsAutomatically } from '../../tests/support/memory-auto-accept.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

let provider: ScriptedProvider;
let server: TestServer;
let exchanges: StoredExchanges;

beforeAll(async () => {
  provider = await startScriptedProvider();
  server = await startTestServer({ judgeTimeoutMs: 300 });
  // These tests are about what the constitution and the merge write: facts skip the Inbox (issue 29.1).
  await acceptProfileFactsAutomatically(server);
  exchanges = new StoredExchanges(server);
  await server.api('/api/settings', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      providers: [{ id: 'judge', kind: 'openai-compatible', baseUrl: `${provider.url}/v1`, models: ['small'] }],
      judgeModelId: 'judge/small',
    }),
  });
});
afterAll(async () => {
  await server.dispose();
  await provider.close();
});

async function judge(question: string): Promise<MemoryJudgeResponse> {
  const stored = await exchanges.store('canvas-1', { question, answer: 'An answer.' });
  const request: MemoryJudgeRequest = stored;
  const response = await server.api('/api/memory/judge', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  return (await response.json()) as MemoryJudgeResponse;
}

describe('memory judge failures', () => {
  it('falls back to the rule path when the judge does not answer, says so in the activity, and skips it for a minute', async () => {
    provider.script({ hang: true, text: 'never' });
    const before = provider.requests.length;
    const judged = await judge('I prefer short answers always.');
    expect(judged.path).toBe('rule');
    expect(judged.activity.map((entry) => [entry.kind, entry.reason])).toEqual([
      ['judge-failed', 'no-answer'],
      ['admitted', null],
    ]);
    expect(provider.requests.length).toBe(before + 1);

    // Cooling down: the next exchange does not reach the judge at all.
    const next = await judge('I like dark themes in every tool.');
    expect(next.path).toBe('rule');
    expect(next.activity[0]!.kind).toBe('judge-failed');
    expect(provider.requests.length).toBe(before + 1);

    // The failure is on the memory page's activity list, newest first.
    const state = (await (await server.api('/api/memory')).json()) as MemoryStateResponse;
    expect(state.judgeModelId).toBe('judge/small');
    expect(state.activity.map((entry) => entry.kind)).toEqual(['admitted', 'judge-failed', 'admitted', 'judge-failed']);
  });
});
