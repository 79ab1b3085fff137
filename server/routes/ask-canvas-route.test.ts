import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AskCanvasTurn, CanonicalRequest, CanvasChatResponse } from '../../protocol/index.ts';
import { askCanvasRequest, type AskCanvasPlan } from '../../src/core/ask-canvas/index.ts';
import { STALE_MARK, TestCanvas, hashCanonical } from '../../src/core/index.ts';
import type { ScriptedProvider } from '../../tests/support/scripted-provider.ts';
import { sampleCanvas } from '../../tests/support/sample-canvas.ts';
import { collectStreamEvents } from '../../tests/support/sse-client.ts';
import { startServerWithProvider } from '../../tests/support/server-with-provider.ts';
import type { TestServer } from '../../tests/support/test-server.ts';

let server: TestServer;
let provider: ScriptedProvider;
let dispose = async () => {};
const MODEL = 'local/scripted-model';

beforeAll(async () => {
  ({ server, provider, dispose } = await startServerWithProvider({
    models: ['scripted-model'],
    apiKey: 'sk-test-ask-canvas-0123456789',
  }));
});
afterAll(async () => {
  await dispose();
});
beforeEach(() => {
  provider.requests.length = 0;
});

/** A chain whose answer went stale, and an archived node wired into it. */
function staleCanvas() {
  const canvas = new TestCanvas();
  const root = canvas.addQuestion('Which metric matters most?');
  canvas.answer(root, 'Retention.');
  const follow = canvas.addQuestion('How do we raise it?');
  canvas.wire(root, follow);
  canvas.answer(follow, 'Onboarding emails.');
  const archived = canvas.addQuestion('A discarded plan about pricing');
  canvas.answer(archived, 'Raise prices tenfold.');
  canvas.wire(archived, follow, 'quote');
  canvas.archive(archived);
  canvas.edit(root, { question: 'Which metric matters most this quarter?' });
  return { canvas, follow };
}

function plan(turns: AskCanvasTurn[] = [], question = 'What is stale here?'): AskCanvasPlan {
  const { canvas, follow } = staleCanvas();
  return askCanvasRequest(canvas.graph, { question, focusId: follow, turns, stale: canvas.shownStale(), model: MODEL });
}

function ask(
  canvasId: string,
  built: AskCanvasPlan,
  options: { turnId?: string; hash?: string; signal?: AbortSignal } = {},
) {
  const question = (built.request.messages.at(-1)!.content[0] as { text: string }).text;
  return server.api(`/api/ask-canvas/${canvasId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      turnId: options.turnId ?? 'turn-1',
      question,
      focusId: null,
      layers: built.layers,
      request: built.request,
      requestHash: options.hash ?? built.requestHash,
      images: [],
    }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

async function chat(canvasId: string): Promise<CanvasChatResponse> {
  return (await (await server.api(`/api/ask-canvas/${canvasId}`)).json()) as CanvasChatResponse;
}

/** The canonical request rebuilt from the OpenAI-shaped body the scripted model received. */
function receivedRequest(body: unknown): CanonicalRequest {
  const { messages } = body as { messages: { role: 'system' | 'user' | 'assistant'; content: unknown }[] };
  return {
    model: MODEL,
    messages: messages.map((message) => ({
      role: message.role,
      content: (typeof message.content === 'string'
        ? [message.content]
        : (message.content as { text: string }[]).map((part) => part.text)
      ).map((text) => ({ type: 'text' as const, text })),
    })),
    tools: {},
  };
}

describe('POST /api/ask-canvas/:canvasId', () => {
  it('streams the answer and stores the turn with the hash of exactly what the model received', async () => {
    provider.script({ text: 'Node [2] is stale: its upstream [1] changed.', chunkSize: 6 });
    const built = plan();
    const events = await collectStreamEvents(await ask('canvas-a', built));
    expect(events[0]).toEqual({ type: 'request-accepted', requestHash: built.requestHash });
    expect(events.at(-1)).toMatchObject({ type: 'answer-finished' });

    expect(provider.requests).toHaveLength(1);
    const received = receivedRequest(provider.requests[0]!.body);
    const sent = JSON.stringify(received);
    // Stale marks are present (outline and chain); the archived node is absent.
    expect(sent).toContain('#2 question [stale] (focused)');
    expect(sent).toContain(STALE_MARK);
    expect(sent).not.toMatch(/discarded|tenfold/);

    const stored = await chat('canvas-a');
    expect(stored.turns).toHaveLength(1);
    const turn = stored.turns[0]!;
    expect(turn).toMatchObject({
      id: 'turn-1',
      question: 'What is stale here?',
      answer: 'Node [2] is stale: its upstream [1] changed.',
      status: 'complete',
      code: null,
      model: MODEL,
      layers: built.layers,
    });
    expect(turn.requestHash).toBe(hashCanonical(received));
    expect(turn.requestHash).toBe(built.requestHash);
  });

  it('sends the earlier turns on the next ask and keeps one chat per canvas', async () => {
    provider.script({ text: 'First answer.' });
    await collectStreamEvents(await ask('canvas-b', plan([], 'First question?'), { turnId: 'b1' }));
    const first = (await chat('canvas-b')).turns;
    provider.script({ text: 'Second answer.' });
    await collectStreamEvents(await ask('canvas-b', plan(first, 'Second question?'), { turnId: 'b2' }));
    const body = JSON.stringify(provider.requests[1]!.body);
    expect(body).toContain('First question?');
    expect(body).toContain('First answer.');
    expect((await chat('canvas-b')).turns.map((turn) => turn.id)).toEqual(['b1', 'b2']);
    expect((await chat('canvas-a')).turns.map((turn) => turn.id)).toEqual(['turn-1']);
  });

  it('refuses a hash mismatch without calling the model and stores nothing', async () => {
    const events = await collectStreamEvents(await ask('canvas-c', plan(), { hash: 'f'.repeat(64) }));
    expect(events).toEqual([expect.objectContaining({ type: 'answer-failed', code: 'hash-mismatch' })]);
    expect(provider.requests).toHaveLength(0);
    expect((await chat('canvas-c')).turns).toEqual([]);
  });

  it('Stop aborts the model call and the turn is kept as stopped with what had arrived', async () => {
    provider.script({ text: 'Partial words', hang: true });
    const controller = new AbortController();
    const response = await ask('canvas-d', plan(), { signal: controller.signal, turnId: 'd1' });
    await provider.waitForRequests(1);
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    const recorded = await provider.waitForEnd(0);
    expect(recorded.aborted).toBe(true);
    await expect.poll(async () => (await chat('canvas-d')).turns.map((turn) => turn.status)).toEqual(['aborted']);
  });

  it('refuses a canvas id that could name a path, and a request that offers tools', async () => {
    const bad = await server.api('/api/ask-canvas/..%2F..%2Fetc', {});
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('invalid-id');
    const built = plan();
    const request = { ...built.request, tools: { webSearch: true } };
    const events = await collectStreamEvents(
      await ask('canvas-e', { ...built, request, requestHash: hashCanonical(request) }),
    );
    expect(events).toEqual([expect.objectContaining({ type: 'answer-failed', code: 'tool-refused' })]);
    expect(provider.requests).toHaveLength(0);
  });

  it('DELETE empties the chat of one canvas', async () => {
    provider.script({ text: 'Kept for now.' });
    await collectStreamEvents(await ask('canvas-f', plan()));
    expect((await chat('canvas-f')).turns).toHaveLength(1);
    expect((await server.api('/api/ask-canvas/canvas-f', { method: 'DELETE' })).status).toBe(200);
    expect((await chat('canvas-f')).turns).toEqual([]);
  });

  it('deleting the canvas deletes its side chat: the file is gone and the chat reads empty', async () => {
    const saved = await server.api('/api/canvases/canvas-g', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(sampleCanvas('canvas-g')),
    });
    expect(saved.status).toBe(200);
    provider.script({ text: 'About to go.' });
    await collectStreamEvents(await ask('canvas-g', plan()));
    const file = join(server.home, 'canvas-chats', 'canvas-g.chat.json');
    expect(existsSync(file)).toBe(true);
    expect((await server.api('/api/canvases/canvas-g', { method: 'DELETE' })).status).toBe(200);
    expect(existsSync(file)).toBe(false);
    expect((await chat('canvas-g')).turns).toEqual([]);
  });
});
