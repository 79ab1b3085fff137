import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  acceptProposal,
  addLine,
  admitFact,
  emptyInbox,
  emptyProfile,
  proposeFact,
} from '../../src/core/memory/index.ts';
import { testCandidate, testContext, testExchange } from '../../src/core/memory/memory-test-kit.ts';
import { nodeAtomicFileSystem, type AtomicFileSystem } from '../fs/atomic-write.ts';
import { MemoryStore } from './memory-store.ts';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'weft-memory-store-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** The real file system, except that putting profile.json in place fails (a crash between the two writes). */
const profileFails: AtomicFileSystem = {
  ...nodeAtomicFileSystem,
  rename: (from, to) =>
    to.endsWith('profile.json') ? Promise.reject(new Error('disk full')) : nodeAtomicFileSystem.rename(from, to),
};

describe('memory store writes', () => {
  it('writes the journal before the profile: a failed profile write never leaves a profile without its events', async () => {
    const options = { directory, now: () => 1_000, newId: () => 'id-1' };
    const added = addLine(emptyProfile(), 'preferences', 'Prefers tabs', { now: 1_000, newId: () => 'line-1' });
    if (!added.ok) throw new Error(added.error);
    const faulty = new MemoryStore({ ...options, fileSystem: profileFails });
    await expect(
      faulty.update(null, () => ({
        change: { profile: added.value.profile, events: added.value.events },
        result: null,
      })),
    ).rejects.toThrow('disk full');
    const stored = await new MemoryStore(options).read();
    // The profile is as it was; the journal already holds the event, so no written profile can lack its record.
    expect(stored.profile).toEqual(emptyProfile());
    expect(stored.journal.events.map((event) => event.op)).toEqual(added.value.events.map((event) => event.op));
  });

  it('writes the inbox last: an accepted line whose inbox write fails stays pending, never lost', async () => {
    const options = { directory, now: () => 1_000, newId: () => 'id-1' };
    const sentence = 'I prefer tabs over spaces.';
    const verdict = admitFact(testCandidate(sentence, sentence), testExchange(sentence), emptyProfile(), 0);
    if (!verdict.admitted) throw new Error(verdict.reason);
    const proposed = proposeFact(emptyInbox(), verdict.fact, testContext(1_000, 'p'))!;
    const store = new MemoryStore(options);
    await store.update(null, () => ({ change: { inbox: proposed.inbox, events: [proposed.event] }, result: null }));
    expect((await stat(join(directory, 'inbox.json'))).mode & 0o777).toBe(0o600);

    const inboxFails: AtomicFileSystem = {
      ...nodeAtomicFileSystem,
      rename: (from, to) =>
        to.endsWith('inbox.json') ? Promise.reject(new Error('disk full')) : nodeAtomicFileSystem.rename(from, to),
    };
    const faulty = new MemoryStore({ ...options, fileSystem: inboxFails });
    await expect(
      faulty.update(null, (current) => {
        const accepted = acceptProposal(current.profile, current.inbox, 'p-1', null, testContext(2_000, 'l'));
        if (!accepted.ok) throw new Error(accepted.error);
        const { profile, inbox, events } = accepted.value;
        return { change: { profile, inbox, events }, result: null };
      }),
    ).rejects.toThrow('disk full');
    const stored = await new MemoryStore(options).read();
    expect(stored.profile.documents.preferences.map((line) => line.text)).toEqual([sentence]);
    expect(stored.inbox.pending.map((proposal) => proposal.id)).toEqual(['p-1']);
    // Accepting it again finds the line already there: nothing is written twice.
    const again = acceptProposal(stored.profile, stored.inbox, 'p-1', null, testContext(3_000, 'm'));
    if (!again.ok) throw new Error(again.error);
    expect(again.value.lineId).toBeNull();
  });

  it('reads an inbox changed outside Weft afresh, and refuses a damaged one without touching it', async () => {
    const store = new MemoryStore({ directory, now: () => 1_000, newId: () => 'id-1' });
    const sentence = 'I use Neovim for everything.';
    const verdict = admitFact(testCandidate(sentence, sentence), testExchange(sentence), emptyProfile(), 0);
    if (!verdict.admitted) throw new Error(verdict.reason);
    const proposed = proposeFact(emptyInbox(), verdict.fact, testContext(1_000, 'p'))!;
    await store.update(null, () => ({ change: { inbox: proposed.inbox }, result: null }));
    const first = await store.readInbox();
    expect(first.inbox.pending).toHaveLength(1);
    const file = join(directory, 'inbox.json');
    await writeFile(file, JSON.stringify(emptyInbox()));
    const changed = await store.readInbox();
    expect(changed.inbox.pending).toEqual([]);
    expect(changed.revision).not.toBe(first.revision);
    await writeFile(file, '{"format":"weft.memory-inbox","pending":[{"id":""}]}');
    await expect(store.readInbox()).rejects.toMatchObject({ code: 'memory-unreadable' });
    expect(await readFile(file, 'utf8')).toBe('{"format":"weft.memory-inbox","pending":[{"id":""}]}');
  });
});
