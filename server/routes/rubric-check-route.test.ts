import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RubricCheckRequest, RubricCheckResponse } from '../../protocol/index.ts';
import { rubricRequest } from '../../src/core/index.ts';
import { startScriptedProvider, type ScriptedProvider } from '../../tests/support/scripted-provider.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

let server: TestServer;
let provider: ScriptedProvider;

async function settings(body: unknown): Promise<void> {
  const response = await server.api('/api/settings', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

async function judge(body: RubricCheckRequest): Promise<RubricCheckResponse> {
  const response = await server.api('/api/checks/rubric', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as RubricCheckResponse;
}

/** A scripted judge: passes an answer that cites a bracketed source, fails any other, and says why. */
function scriptedJudge(body: unknown) {
  const text = JSON.stringify((body as { messages: unknown }).messages);
  const cites = /Answer:\\n[^"]*\[\d+\]/.test(text);
  return {
    text: cites
      ? '```json\n{"verdict": "pass", "reason": "It cites source [1]."}\n```'
      : '{"verdict": "fail", "reason": "No source is cited."}',
  };
}

beforeAll(async () => {
  provider = await startScriptedProvider();
  provider.replyFor = scriptedJudge;
  server = await startTestServer();
  await settings({
    providers: [
      {
        id: 'local',
        kind: 'openai-compatible',
        baseUrl: `${provider.url}/v1`,
        apiKey: 'sk-rubric-test-0123456789',
        models: ['judge'],
      },
    ],
    judgeModelId: 'local/judge',
  });
});
afterAll(async () => {
  await server.dispose();
  await provider.close();
});

describe('POST /api/checks/rubric', () => {
  const RUBRIC = 'Cites at least one source';

  it('keeps the judge’s verdict and reason, and the hash of the very request it sent', async () => {
    const body = { question: 'Why is the sky blue?', answer: 'Rayleigh scattering [1].', rubric: RUBRIC };
    const before = provider.requests.length;
    const passed = await judge(body);
    const expected = rubricRequest(body, 'local/judge');
    expect(passed).toEqual({
      verdict: 'pass',
      reason: 'It cites source [1].',
      model: 'local/judge',
      requestHash: expected.requestHash,
    });
    // The provider saw the request core built: the same messages, byte for byte, at temperature 0.
    const sent = provider.requests[before]!.body as {
      messages: { role: string; content: unknown }[];
      temperature: number;
    };
    expect(sent.temperature).toBe(0);
    expect(sent.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(JSON.stringify(sent.messages[1]!.content)).toContain('Rayleigh scattering [1].');

    const failed = await judge({ ...body, answer: 'Because of the air.' });
    expect(failed).toMatchObject({ verdict: 'fail', reason: 'No source is cited.' });
    expect(failed.requestHash).not.toBe(passed.requestHash);
  });

  it('says so, with no verdict, when the judge’s reply cannot be read or no decision model is set', async () => {
    provider.script({ text: 'I think it is fine.' });
    expect(await judge({ question: 'q', answer: 'a', rubric: RUBRIC })).toMatchObject({
      verdict: null,
      reason: 'The judge’s reply could not be read.',
      model: 'local/judge',
    });
    await settings({ judgeModelId: null });
    const before = provider.requests.length;
    expect(await judge({ question: 'q', answer: 'a', rubric: RUBRIC })).toEqual({
      verdict: null,
      reason: 'No decision model is set in Settings.',
      model: null,
      requestHash: null,
    });
    expect(provider.requests.length).toBe(before);
    await settings({ judgeModelId: 'local/judge' });
  });
});
