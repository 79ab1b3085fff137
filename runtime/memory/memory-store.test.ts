import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addLine, emptyProfile } from '../../src/core/memory/index.ts';
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
});
