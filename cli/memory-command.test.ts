import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryJournalVerdictSchema, type MemoryJournalPage, type MemoryJournalVerify } from '../protocol/index.ts';
import { judgedEvent } from '../src/core/memory/index.ts';
import { MemoryStore } from '../runtime/memory/index.ts';
import { commandNamed } from './command-table.ts';
import { runWeft } from './run-weft.ts';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'weft-cli-memory-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

const weft = (...args: string[]) => runWeft(args, { env: { ...process.env, WEFT_HOME: home } });
const journalFile = () => join(home, 'memory', 'journal.json');

/** Two judged facts written by the real store, as the judge route writes them: one admitted, one refused. */
async function twoJudgements(): Promise<void> {
  mkdirSync(join(home, 'memory'), { recursive: true });
  let at = 1_700_000_000_000;
  let id = 0;
  const store = new MemoryStore({ directory: join(home, 'memory'), now: () => (at += 1000), newId: () => `e${++id}` });
  const origin = { canvasId: 'canvas-1', nodeId: 'node-1', versionId: 'v1', commitHash: 'c'.repeat(64), at: 0 };
  const fact = { category: 'preference', path: 'rule' } as Parameters<typeof judgedEvent>[0];
  await store.update(null, () => ({ change: { events: [judgedEvent(fact, origin, null)] }, result: null }));
  await store.update(null, () => ({ change: { events: [judgedEvent(fact, origin, 'not-durable')] }, result: null }));
}

describe('weft memory journal (the built CLI, spawned)', { timeout: 120_000 }, () => {
  it('lists entries newest first, filters by verdict, and verifies (exit 1 once an event is altered)', async () => {
    await twoJudgements();
    const listed = await weft('memory', 'journal');
    expect(listed.code).toBe(0);
    const refusedAt = listed.stdout.indexOf('was refused: it was a request or a passing state');
    const admittedAt = listed.stdout.indexOf('was admitted by the rule path');
    expect(refusedAt).toBeGreaterThanOrEqual(0);
    expect(admittedAt).toBeGreaterThan(refusedAt);
    expect(listed.stdout).toContain('turn: canvas-1/node-1');

    const refused = await weft('memory', 'journal', '--verdict', 'refused', '--json');
    const page = JSON.parse(refused.stdout) as MemoryJournalPage;
    expect(page.entries.map((entry) => [entry.verdict, entry.event.meta.reason])).toEqual([['refused', 'not-durable']]);
    expect((await weft('memory', 'journal', '--limit', '1', '--json')).stdout).toContain('"total": 2');

    const intact = await weft('memory', 'journal', '--verify');
    expect(intact.code).toBe(0);
    expect(intact.stdout).toContain('memory/journal.json: Intact: all 2 events verify and match the chain head.');

    const journal = JSON.parse(readFileSync(journalFile(), 'utf8')) as { events: { meta: { reason: unknown } }[] };
    journal.events[0]!.meta.reason = 'duplicate';
    writeFileSync(journalFile(), JSON.stringify(journal));
    const broken = await weft('memory', 'journal', '--verify', '--json');
    expect(broken.code).toBe(1);
    const verdict = JSON.parse(broken.stdout) as MemoryJournalVerify;
    expect(verdict.journals[0]!.verdict).toMatchObject({ status: 'bad-event', index: 0, eventId: 'e1' });
    expect(verdict.journals[0]!.message).toMatch(/^Broken at event 1 of 2 \(id e1\)/);
  });

  it('says when events are missing at the end, and refuses an unknown action', async () => {
    await twoJudgements();
    const journal = JSON.parse(readFileSync(journalFile(), 'utf8')) as { events: unknown[] };
    journal.events.pop();
    writeFileSync(journalFile(), JSON.stringify(journal));
    const shortened = await weft('memory', 'journal', '--verify');
    expect(shortened.code).toBe(1);
    expect(shortened.stdout).toContain('1 event missing at the end: the chain head records 2, the log holds 1.');
    const unknown = await weft('memory', 'profile');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('unknown memory action');
  });
});

// The command table stays free of zod (it loads on every `weft` start), so its copy of the verdicts is checked here.
describe('weft memory journal --verdict', () => {
  it('offers exactly the verdicts the journal records', () => {
    expect(commandNamed('memory')?.flags?.verdict?.choices).toEqual(MemoryJournalVerdictSchema.options);
  });
});
