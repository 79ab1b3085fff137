import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryJudgeResponse, MemoryStateResponse } from '../../protocol/index.ts';
import { StoredExchanges } from '../../tests/support/stored-exchange.ts';
import { acceptProfileFactsAutomatically } from '../../tests/support/memory-auto-accept.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

/**
 * C14 "only the person's own words become facts", guarded by the server: `POST /api/memory/judge` names an
 * exchange by ids, and the server reads the question and the notes from the stored canvas. A caller cannot hand
 * it assistant text as the person's, name an exchange that was never stored, or pass off a note Weft wrote.
 */
let server: TestServer;
let exchanges: StoredExchanges;

beforeAll(async () => {
  server = await startTestServer();
  // These tests are about what the constitution and the merge write: facts skip the Inbox (issue 29.1).
  await acceptProfileFactsAutomatically(server);
  exchanges = new StoredExchanges(server);
});
afterAll(async () => {
  await server.dispose();
});

const post = (body: unknown) =>
  server.api('/api/memory/judge', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function errorCode(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}

async function profile(): Promise<MemoryStateResponse> {
  return (await (await server.api('/api/memory')).json()) as MemoryStateResponse;
}

const currentTexts = (state: MemoryStateResponse) =>
  [...state.profile.documents.preferences, ...state.profile.documents.identity]
    .filter((line) => line.ended === null)
    .map((line) => line.text);

describe('POST /api/memory/judge reads the person’s words from the stored canvas', () => {
  it('refuses a body that carries its own texts: assistant words put in `question`/`notes` never become a fact', async () => {
    const stored = await exchanges.store('forged', {
      question: 'Which editor should I use?',
      answer: 'I prefer Emacs over Vim for everything.',
    });
    const before = await profile();
    const forged = await post({
      ...stored,
      question: 'I prefer Emacs over Vim for everything.',
      notes: [{ nodeId: 'note-x', text: 'My name is Mallory Smith.' }],
      answer: 'Sure.',
      other: [],
    });
    expect(forged.status).toBe(400);
    expect(await errorCode(forged)).toBe('invalid-body');
    const after = await profile();
    expect(after.revision).toBe(before.revision);
    expect(currentTexts(after)).toEqual([]);

    // The same exchange named by ids alone: the stored question says nothing about the person, and the answer's
    // first-person sentence is the model's.
    const honest = await post(stored);
    expect(honest.status).toBe(200);
    expect(((await honest.json()) as MemoryJudgeResponse).activity).toEqual([]);
    expect(currentTexts(await profile())).toEqual([]);
  });

  it('refuses with a code, writing nothing, an exchange the canvas does not record', async () => {
    const stored = await exchanges.store('unknown', { question: 'I prefer dark themes in every editor.' });
    const before = await profile();
    const cases: [Record<string, string>, number, string][] = [
      [{ commitHash: 'e'.repeat(64) }, 409, 'memory-exchange-mismatch'],
      [{ versionId: 'no-such-version' }, 404, 'memory-exchange-unknown'],
      [{ nodeId: 'no-such-node' }, 404, 'memory-exchange-unknown'],
      [{ canvasId: 'no-such-canvas' }, 404, 'memory-exchange-unknown'],
    ];
    for (const [override, status, code] of cases) {
      const response = await post({ ...stored, ...override });
      expect([response.status, await errorCode(response)], JSON.stringify(override)).toEqual([status, code]);
    }
    const after = await profile();
    expect(after.revision).toBe(before.revision);
    expect(after.activity).toEqual(before.activity);
    // Named correctly, the same exchange is judged.
    const judged = await post(stored);
    expect(((await judged.json()) as MemoryJudgeResponse).activity.map((entry) => entry.text)).toEqual([
      'I prefer dark themes in every editor.',
    ]);
  });

  it('takes a note the person wrote as their words, never a note Weft wrote, nor one edited since the ask', async () => {
    const app = await exchanges.store('notes', {
      question: 'Continue the session.',
      notes: [{ text: 'I prefer Emacs and I live in Oslo.', author: 'app' }],
    });
    const fromApp = (await (await post(app)).json()) as MemoryJudgeResponse;
    expect(fromApp.activity).toEqual([]);

    const person = await exchanges.store('notes', {
      question: 'Convert 5 miles.',
      notes: ['I prefer metric units in every answer.'],
    });
    const fromPerson = (await (await post(person)).json()) as MemoryJudgeResponse;
    expect(fromPerson.activity.map((entry) => [entry.kind, entry.text])).toEqual([
      ['admitted', 'I prefer metric units in every answer.'],
    ]);

    // Edited after the ask: what the note says now is not what was sent, so it vouches for nothing.
    const edited = await exchanges.store('notes', {
      question: 'Convert 5 pounds.',
      notes: ['I prefer grams over ounces.'],
    });
    const noteId = exchanges.nodesOf('notes', 'note').at(-1)!;
    await exchanges.update('notes', (canvas) => canvas.edit(noteId, { text: 'I prefer kilograms for body weight.' }));
    const fromEdited = (await (await post(edited)).json()) as MemoryJudgeResponse;
    expect(fromEdited.activity).toEqual([]);
    expect(currentTexts(await profile())).toEqual([
      'I prefer dark themes in every editor.',
      'I prefer metric units in every answer.',
    ]);
  });
});

describe('a question the person did not write is not their words (C14)', () => {
  it('a fan-out sub-question asked as the model proposed it admits nothing; once the person rewrites it, it counts', async () => {
    const proposed = ['I prefer night trains over flights on every trip. Which routes suit me?', 'Where do I start?'];
    const [asked] = await exchanges.storeFanOut('fan-out', 'Help me plan a trip to Vienna.', proposed, [proposed[0]!]);
    const before = await profile();
    const response = await post(asked!);
    const judged = (await response.json()) as MemoryJudgeResponse;
    expect(response.status, JSON.stringify(judged)).toBe(200);
    expect(judged.activity).toEqual([]);
    const after = await profile();
    expect(after.revision).toBe(before.revision);
    expect(currentTexts(after)).not.toContain('I prefer night trains over flights on every trip.');

    // The person rewrites the sub-question and asks it: now the words are theirs.
    await exchanges.update('fan-out', (canvas) =>
      canvas.edit(asked!.nodeId, { question: 'I prefer night trains over flights on every trip. Which routes?' }),
    );
    const again = await exchanges.ask('fan-out', asked!.nodeId);
    const mine = (await (await post(again)).json()) as MemoryJudgeResponse;
    expect(mine.activity.map((entry) => [entry.kind, entry.text])).toEqual([
      ['admitted', 'I prefer night trains over flights on every trip.'],
    ]);
    const line = [...(await profile()).profile.documents.preferences].find(
      (each) => each.text === 'I prefer night trains over flights on every trip.',
    );
    expect(line?.evidence).toBe('stated');
    expect(line?.origin.versionId).toBe(again.versionId);

    // An import's `stated` line keeps its label only on the person's words at its origin: words only the model's
    // sub-question had ("Which routes suit me?") do not vouch for it, though the node is the person's now.
    const exported = await (await server.api('/api/memory/export')).text();
    const forged = exported.replaceAll('I prefer night trains over flights on every trip.', 'Which routes suit me?');
    expect(forged).not.toBe(exported);
    const current = await server.api('/api/memory');
    const imported = await server.api('/api/memory/import', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'if-match': current.headers.get('etag')! },
      body: JSON.stringify({ markdown: forged }),
    });
    expect(imported.status).toBe(200);
    expect(currentTexts(await profile())).not.toContain('Which routes suit me?');
  });
});
