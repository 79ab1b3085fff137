import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryJudgeResponse, MemoryStateResponse } from '../../protocol/index.ts';
import { StoredExchanges } from '../../tests/support/stored-exchange.ts';
import { acceptProfileFactsAutomatically } from '../../tests/support/memory-auto-accept.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';
import { visitClock } from '../../tests/support/visit-clock.ts';

/**
 * Issue 27.3: the limit of three profile additions per canvas per visit is counted by the server on its own
 * clock. A hostile client holding the token cannot open a new visit by sending a fresh id with every call.
 */
let server: TestServer;
let exchanges: StoredExchanges;
const clock = visitClock();

beforeAll(async () => {
  server = await startTestServer({ now: clock.now });
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

async function admittedTexts(): Promise<string[]> {
  const state = (await (await server.api('/api/memory')).json()) as MemoryStateResponse;
  const { documents } = state.profile;
  return [...documents.preferences, ...documents.identity]
    .filter((line) => line.ended === null)
    .map((line) => line.text);
}

const STATEMENTS = [
  'I like green tea a lot. I love long walks outside. I enjoy chess on Sundays.',
  'I prefer dark themes everywhere. I use Neovim daily. I like Rust for tools.',
  'I enjoy jazz while coding. I prefer short answers. I love hiking in autumn.',
];

describe('three additions per canvas per visit, as the server counts them', () => {
  it('refuses a body that names its own visit', async () => {
    const stored = await exchanges.store('hostile-visit-id', { question: 'I like green tea a lot.' });
    const response = await post({ ...stored, visitId: 'visit-1' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid-body');
    expect(await admittedTexts()).toEqual([]);
  });

  it('nine statements over three calls on one canvas admit three; the window passing admits again', async () => {
    const verdicts: string[] = [];
    for (const question of STATEMENTS) {
      const stored = await exchanges.store('one-canvas', { question });
      const response = await post(stored);
      expect(response.status).toBe(200);
      const judged = (await response.json()) as MemoryJudgeResponse;
      verdicts.push(...judged.activity.map((entry) => entry.reason ?? entry.kind));
    }
    expect(verdicts.filter((verdict) => verdict === 'admitted')).toHaveLength(3);
    expect(verdicts.filter((verdict) => verdict === 'visit-limit')).toHaveLength(6);
    expect(await admittedTexts()).toHaveLength(3);

    // Another canvas has a visit of its own.
    const elsewhere = await exchanges.store('another-canvas', { question: 'I prefer tabs over spaces.' });
    const other = (await (await post(elsewhere)).json()) as MemoryJudgeResponse;
    expect(other.activity.map((entry) => entry.kind)).toEqual(['admitted']);

    // An hour later by the server's clock, the same canvas is a new visit.
    clock.nextVisit();
    const later = await exchanges.store('one-canvas', { question: 'I like long answers on Fridays.' });
    const next = (await (await post(later)).json()) as MemoryJudgeResponse;
    expect(next.activity.map((entry) => entry.kind)).toEqual(['admitted']);
  });
});
