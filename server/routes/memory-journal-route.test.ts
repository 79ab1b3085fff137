import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryJournalPage, MemoryJournalVerify, TopicsState } from '../../protocol/index.ts';
import { StoredExchanges } from '../../tests/support/stored-exchange.ts';
import { acceptProfileFactsAutomatically } from '../../tests/support/memory-auto-accept.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';
import { visitClock } from '../../tests/support/visit-clock.ts';

let server: TestServer;
let exchanges: StoredExchanges;
const clock = visitClock();

beforeAll(async () => {
  server = await startTestServer({ now: clock.now });
  // These tests are about what the constitution and the merge write: facts skip the Inbox (issue 29.1).
  await acceptProfileFactsAutomatically(server);
  exchanges = new StoredExchanges(server);
  // Three asks on the rule path: two admitted, one refused (a request to the model is not durable).
  for (const question of ['I prefer tabs over spaces.', 'I want a regex for dates.', 'I use Neovim for everything.']) {
    const stored = await exchanges.store('canvas-1', { question, answer: 'Noted.' });
    const judged = await server.api('/api/memory/judge', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(stored),
    });
    expect(judged.status).toBe(200);
  }
  const topics = (await (await server.api('/api/topics')).json()) as TopicsState;
  const created = await server.api('/api/topics', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'if-match': `"${topics.revision}"` },
    body: JSON.stringify({ name: 'Editors' }),
  });
  expect(created.status).toBeLessThan(300);
});
afterAll(async () => {
  await server.dispose();
});

async function page(query: string): Promise<MemoryJournalPage> {
  const response = await server.api(`/api/memory/journal${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as MemoryJournalPage;
}

async function verify(): Promise<MemoryJournalVerify> {
  const response = await server.api('/api/memory/journal/verify');
  expect(response.status).toBe(200);
  return (await response.json()) as MemoryJournalVerify;
}

describe('memory journal over HTTP', () => {
  it('pages through both journals newest first with a cursor, no entry twice or missing', async () => {
    const whole = await page('?limit=500');
    expect(whole.nextCursor).toBeNull();
    expect(whole.entries.map((entry) => entry.journal)).toContain('topics');
    expect(whole.entries.map((entry) => entry.event.op)).toContain('memory-judged');
    const times = whole.entries.map((entry) => entry.event.at);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(whole.entries[0]!.event.op).toBe('topic-created');

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const next: MemoryJournalPage = await page(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(next.entries.length).toBeLessThanOrEqual(2);
      seen.push(...next.entries.map((entry) => entry.event.id));
      cursor = next.nextCursor;
    } while (cursor);
    expect(seen).toEqual(whole.entries.map((entry) => entry.event.id));
  });

  it('filters by verdict and by op, and refuses a malformed query', async () => {
    const refused = await page('?verdict=refused');
    expect(refused.total).toBe(1);
    expect(refused.entries[0]!.event).toMatchObject({ op: 'memory-judged', meta: { reason: 'not-durable' } });
    const admitted = await page('?verdict=admitted&op=memory-judged');
    expect(admitted.entries.map((entry) => entry.event.meta.verdict)).toEqual(['admitted', 'admitted']);
    expect(admitted.entries.every((entry) => entry.event.meta.canvasId === 'canvas-1')).toBe(true);
    expect((await server.api('/api/memory/journal?verdict=maybe')).status).toBe(400);
    expect((await server.api('/api/memory/journal?limit=0')).status).toBe(400);
  });

  it('verifies both chains, then names an event altered on disk and the last one removed', async () => {
    const intact = await verify();
    expect(intact.intact).toBe(true);
    expect(intact.journals.map((entry) => [entry.journal, entry.verdict.status])).toEqual([
      ['profile', 'intact'],
      ['topics', 'intact'],
    ]);
    expect(intact.journals[0]!.verdict).toMatchObject({ anchored: true });
    expect(intact.journals[0]!.message).toMatch(/^Intact: all \d+ events verify and match the chain head\.$/);

    const file = join(server.home, 'memory', 'journal.json');
    const original = await readFile(file, 'utf8');
    const journal = JSON.parse(original) as { events: { meta: Record<string, unknown> }[] };
    journal.events[1]!.meta.reason = 'duplicate';
    await writeFile(file, JSON.stringify(journal));
    const altered = await verify();
    expect(altered.intact).toBe(false);
    expect(altered.journals[0]!.verdict).toMatchObject({ status: 'bad-event', index: 1 });
    expect(altered.journals[0]!.message).toMatch(/^Broken at event 2 of /);
    expect(altered.journals[1]!.verdict.status).toBe('intact');

    const truncated = JSON.parse(original) as { events: unknown[] };
    truncated.events.pop();
    await writeFile(file, JSON.stringify(truncated));
    const shortened = await verify();
    expect(shortened.intact).toBe(false);
    expect(shortened.journals[0]!.verdict).toMatchObject({ status: 'missing-at-end', missing: 1 });
    expect(shortened.journals[0]!.message).toMatch(/^1 event missing at the end/);

    const topicsFile = join(server.home, 'memory', 'topics-journal.json');
    const topics = JSON.parse(await readFile(topicsFile, 'utf8')) as { events: unknown[] };
    topics.events.pop();
    await writeFile(topicsFile, JSON.stringify(topics));
    expect((await verify()).journals[1]!.verdict).toMatchObject({ status: 'missing-at-end', missing: 1 });
    await writeFile(file, original);
  });
});
