import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentKey } from '../../src/core/index.ts';
import { putAsideEvent } from '../../src/core/memory/index.ts';
import { failingAt } from '../../tests/support/failing-file-system.ts';
import { nodeAtomicFileSystem, type AtomicFileSystem } from '../fs/atomic-write.ts';
import { PutAsideStore, putAsidePath, type PutAsideChange } from '../fs/index.ts';
import { struckSentenceChange } from '../fs/testing/struck-sentence-change.ts';
import { journalPutAsides } from './journal-put-asides.ts';
import { journalSecretPath } from './journal-secret.ts';
import { MemoryStore, memoryDirectory } from './memory-store.ts';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'weft-journal-put-asides-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const WORDS = 'Our launch codename is Bluebird';

function struck(op: PutAsideChange['op'] = 'put-aside', text = WORDS): PutAsideChange {
  return struckSentenceChange(text, { op, at: 1_000, origin: { topicId: 'topic-1', sentenceId: 'sentence-1' } });
}

/** The real file system, failing at one step while `broken.now` is set (a disk that errs, then recovers). */
function flaky(broken: { now: boolean }): AtomicFileSystem {
  const failing = failingAt('before rename');
  return {
    ...nodeAtomicFileSystem,
    rename: (from, to) => (broken.now ? failing : nodeAtomicFileSystem).rename(from, to),
  };
}

function journaledStore(memoryFiles?: AtomicFileSystem, logFiles?: AtomicFileSystem) {
  const memory = new MemoryStore({
    directory: memoryDirectory(home),
    now: () => 1_000,
    newId: (() => {
      let next = 0;
      return () => `event-${++next}`;
    })(),
    fileSystem: memoryFiles,
  });
  const putAsides = new PutAsideStore(home, {
    journal: async (events) => void (await journalPutAsides(memory, events)),
    fileSystem: logFiles,
  });
  return { memory, putAsides };
}

describe('put-asides and their journal events', () => {
  it('journals a put-aside whose first journal write failed when it is retried: no line without its event', async () => {
    const broken = { now: true };
    const { memory, putAsides } = journaledStore(flaky(broken));
    await expect(putAsides.append([struck()])).rejects.toThrow('power cut (injected)');
    // The journal failed, so the line was not written: the words are not put aside without a record of it.
    expect(putAsides.inForce()).toEqual([]);
    expect((await memory.read()).journal.events).toEqual([]);

    broken.now = false;
    const written = await putAsides.append([struck()]);
    expect(written.map((event) => event.op)).toEqual(['put-aside']);
    expect(putAsides.inForce().map((event) => event.key)).toEqual([contentKey('dossier-sentence', WORDS)]);
    const events = (await memory.read()).journal.events;
    expect(events.map((event) => [event.op, event.meta.rev])).toEqual([['memory-put-aside', 1]]);
  });

  it('leaves no copy of a struck sentence in the log once it is restored', async () => {
    const { putAsides } = journaledStore();
    await putAsides.append([struck(), struck('put-aside', 'Another struck sentence')]);
    expect(await readFile(putAsidePath(home), 'utf8')).toContain('Bluebird');

    await putAsides.append([struck('restored')]);
    const log = await readFile(putAsidePath(home), 'utf8');
    expect(log).not.toContain('Bluebird');
    // The other tombstone keeps its words, the history keeps every line, and the file stays private.
    expect(log).toContain('Another struck sentence');
    expect(
      log
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).op),
    ).toEqual(['put-aside', 'put-aside', 'restored']);
    expect((await stat(putAsidePath(home))).mode & 0o777).toBe(0o600);
    expect(putAsides.inForce().map((event) => event.excerpt)).toEqual(['Another struck sentence']);
    // Read afresh by another process's store, the log replays to the same state.
    expect(new PutAsideStore(home).inForce().map((event) => event.excerpt)).toEqual(['Another struck sentence']);

    // Struck again, the words are kept once (the line in force); restored again, nowhere.
    await putAsides.append([struck()]);
    expect((await readFile(putAsidePath(home), 'utf8')).split('Bluebird')).toHaveLength(2);
    await putAsides.append([struck('restored')]);
    expect(await readFile(putAsidePath(home), 'utf8')).not.toContain('Bluebird');
  });

  it('restores and drops the words in one step: a failed rewrite leaves the put-aside as it was, and a retry works', async () => {
    const broken = { now: true };
    const { putAsides } = journaledStore(undefined, flaky(broken));
    await putAsides.append([struck()]);
    await expect(putAsides.append([struck('restored')])).rejects.toThrow('power cut (injected)');
    expect(putAsides.inForce().map((event) => event.excerpt)).toEqual([WORDS]);

    broken.now = false;
    expect((await putAsides.append([struck('restored')])).map((event) => event.op)).toEqual(['restored']);
    expect(putAsides.inForce()).toEqual([]);
    expect(await readFile(putAsidePath(home), 'utf8')).not.toContain('Bluebird');
  });

  it("names the content in the journal by a key salted with the home's own secret, stable within the home", async () => {
    const { memory, putAsides } = journaledStore();
    await putAsides.append([struck()]);
    await putAsides.append([struck('restored')]);
    const [putAside, restored] = (await memory.read()).journal.events;
    const key = contentKey('dossier-sentence', WORDS);
    // Not the bare content key, nor any plain hash of it or of the words: a dictionary of texts finds nothing.
    const plain = [key, WORDS, WORDS.toLowerCase()].map((text) => createHash('sha256').update(text).digest('hex'));
    expect([key, ...plain]).not.toContain(putAside?.objectId);
    expect(putAside?.objectId).toMatch(/^[0-9a-f]{64}$/);
    // The restore names the same object as the put-aside it lifts.
    expect(restored?.objectId).toBe(putAside?.objectId);
    const secret = journalSecretPath(memoryDirectory(home));
    expect((await stat(secret)).mode & 0o777).toBe(0o600);

    // Another home has its own secret, so the same words get another id there.
    const other = await mkdtemp(join(tmpdir(), 'weft-journal-put-asides-'));
    try {
      const elsewhere = new MemoryStore({ directory: memoryDirectory(other), now: () => 1, newId: () => 'x' });
      await new PutAsideStore(other, {
        journal: async (events) => void (await journalPutAsides(elsewhere, events)),
      }).append([struck()]);
      const [there] = (await elsewhere.read()).journal.events;
      expect(there?.objectId).not.toBe(putAside?.objectId);
      expect(await readFile(journalSecretPath(memoryDirectory(other)), 'utf8')).not.toBe(
        await readFile(secret, 'utf8'),
      );
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
  it('names a put-aside journaled before the ids were keyed, by its old id, when restoring it', async () => {
    // Before: the put-aside's line written and journaled under the bare content key (as the store did then).
    const { memory, putAsides } = journaledStore();
    const key = contentKey('dossier-sentence', WORDS);
    const [line] = await new PutAsideStore(home).append([struck()]);
    await memory.update(null, () => ({ change: { events: [putAsideEvent(line!, key)] }, result: null }));

    await putAsides.append([struck('restored')]);
    const [old, restored] = (await memory.read()).journal.events;
    // The restore names the put-aside it lifts, so the decision stays traceable to its event.
    expect([old?.op, restored?.op]).toEqual(['memory-put-aside', 'memory-restored']);
    expect(restored?.objectId).toBe(key);
    expect(restored?.meta.rev).toBe(2);

    // Struck and restored again, the words are journaled under the keyed id, both times.
    await putAsides.append([struck()]);
    await putAsides.append([struck('restored')]);
    const [, , again, liftedAgain] = (await memory.read()).journal.events;
    expect(again?.objectId).toMatch(/^[0-9a-f]{64}$/);
    expect(again?.objectId).not.toBe(key);
    expect(liftedAgain?.objectId).toBe(again?.objectId);
  });

  it('a put-aside and its restore in one write name the same keyed id', async () => {
    const { memory, putAsides } = journaledStore();
    await putAsides.append([struck(), struck('restored')]);
    const [putAside, restored] = (await memory.read()).journal.events;
    expect(putAside?.objectId).toMatch(/^[0-9a-f]{64}$/);
    expect(restored?.objectId).toBe(putAside?.objectId);
  });
});
