import { execFile } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { contentKey, isPutAside } from '../../src/core/index.ts';
import { emptyCanvasDocument } from '../../src/core/index.ts';
import type { CanvasDocument } from '../../protocol/index.ts';
import { CanvasStore } from './canvas-store.ts';
import { PutAsideStore, putAsidePath, readPutAsides, type PutAsideChange } from './put-aside-store.ts';
import { struckSentenceChange } from './testing/struck-sentence-change.ts';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});
function home(): string {
  const made = mkdtempSync(join(tmpdir(), 'weft-put-asides-'));
  homes.push(made);
  return made;
}

const change = (text: string, op: PutAsideChange['op'] = 'put-aside', at = 1): PutAsideChange => ({
  op,
  key: contentKey('canvas-turn', text),
  kind: 'canvas-turn',
  reason: op === 'put-aside' ? 'archived' : 'unarchived',
  at,
  origin: { canvasId: 'c', nodeId: text },
});

describe('the put-aside store', () => {
  it('keeps each tombstone with its reason and time, lifts it on restore and keeps both in the log', async () => {
    const weftHome = home();
    const store = new PutAsideStore(weftHome);
    await store.append([change('Why A?'), change('Why B?')]);
    expect(isPutAside(readPutAsides(weftHome), 'canvas-turn', 'why a?')).toBe(true);
    await store.append([change('Why A?', 'restored', 2)]);
    expect(isPutAside(readPutAsides(weftHome), 'canvas-turn', 'Why A?')).toBe(false);
    expect(store.inForce().map((event) => [event.origin, event.reason])).toEqual([
      [{ canvasId: 'c', nodeId: 'Why B?' }, 'archived'],
    ]);
    const lines = readFileSync(putAsidePath(weftHome), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => [line.rev, line.op])).toEqual([
      [1, 'put-aside'],
      [2, 'put-aside'],
      [3, 'restored'],
    ]);
    expect(statSync(putAsidePath(weftHome)).mode & 0o777).toBe(0o600);
    // Nothing new is written for a tombstone already in force.
    expect(await store.append([change('Why B?')])).toEqual([]);
    expect(store.revision()).toBe(3);
  });

  it('serializes concurrent appends: every one is kept, revisions in order', async () => {
    const weftHome = home();
    const store = new PutAsideStore(weftHome);
    await Promise.all(Array.from({ length: 40 }, (_, index) => store.append([change(`Question ${index}`)])));
    expect(readPutAsides(weftHome).size).toBe(40);
    const revisions = readFileSync(putAsidePath(weftHome), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).rev);
    expect(revisions).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
  });

  it('skips a torn last line (a crash mid-append) and appends whole lines after it', async () => {
    const weftHome = home();
    const store = new PutAsideStore(weftHome);
    await store.append([change('Kept')]);
    appendFileSync(putAsidePath(weftHome), '{"rev":2,"op":"put-aside","key":"canvas-turn:');
    expect(new PutAsideStore(weftHome).inForce()).toHaveLength(1);
    await new PutAsideStore(weftHome).append([change('After the crash')]);
    const keys = readPutAsides(weftHome);
    expect(isPutAside(keys, 'canvas-turn', 'Kept')).toBe(true);
    expect(isPutAside(keys, 'canvas-turn', 'After the crash')).toBe(true);
    expect(keys.size).toBe(2);
  });
});

describe('a canvas save records put-asides', () => {
  const node = (id: string, text: string, archived = false) =>
    ({
      id,
      createdAt: 0,
      position: { x: 0, y: 0 },
      size: null,
      archived,
      archivedAt: archived ? 5 : null,
      excludedParts: [],
      kind: 'question',
      question: text,
      versions: [],
      currentVersionId: null,
      autoRerun: { enabled: false, rounds: 1 },
      model: null,
      attachments: [],
    }) as CanvasDocument['nodes'][number];
  const canvas = (nodes: CanvasDocument['nodes']): CanvasDocument => ({
    ...emptyCanvasDocument({ id: 'c', name: 'c', workingDirectory: null, createdAt: 0 }),
    nodes,
  });

  it('archiving, deleting, undoing a deletion and re-asking the same words', async () => {
    const weftHome = home();
    const putAsides = new PutAsideStore(weftHome);
    const canvases = new CanvasStore({ directory: join(weftHome, 'canvases'), putAsides, now: () => 7 });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(weftHome, 'canvases'));
    let stored = await canvases.write('c', canvas([node('a', 'Archive me'), node('b', 'Delete me')]), {
      baseRevision: null,
    });
    stored = await canvases.write('c', canvas([node('a', 'Archive me', true)]), { baseRevision: stored.revision });
    const keys = () => readPutAsides(weftHome);
    expect(isPutAside(keys(), 'canvas-turn', 'Archive me')).toBe(true);
    expect(isPutAside(keys(), 'canvas-turn', 'Delete me')).toBe(true);
    expect(putAsides.inForce().map((event) => [event.reason, event.at])).toEqual([
      ['deleted', 7],
      ['archived', 7],
    ]);
    // The same words asked again under a new node: still put aside.
    stored = await canvases.write('c', canvas([node('a', 'Archive me', true), node('n', 'Delete me')]), {
      baseRevision: stored.revision,
    });
    expect(isPutAside(keys(), 'canvas-turn', 'Delete me')).toBe(true);
    // Unarchiving restores; the deleted node brought back under its own id (an undo) restores too.
    await canvases.write('c', canvas([node('a', 'Archive me'), node('b', 'Delete me')]), {
      baseRevision: stored.revision,
    });
    expect(keys().size).toBe(0);
    const restores = readFileSync(putAsidePath(weftHome), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((line) => line.op === 'restored');
    expect(restores.map((line) => line.reason).sort()).toEqual(['reappeared', 'unarchived']);
  });

  it('only the node that put words aside lifts it: the same words archived and unarchived elsewhere do not', async () => {
    const weftHome = home();
    const putAsides = new PutAsideStore(weftHome);
    const canvases = new CanvasStore({ directory: join(weftHome, 'canvases'), putAsides, now: () => 7 });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(weftHome, 'canvases'));
    let stored = await canvases.write('c', canvas([node('a', 'Shared words'), node('b', 'Shared words')]), {
      baseRevision: null,
    });
    // `a` puts the words aside; `b` archived next adds no tombstone (the key is in force), then is unarchived.
    stored = await canvases.write('c', canvas([node('b', 'Shared words')]), { baseRevision: stored.revision });
    stored = await canvases.write('c', canvas([node('b', 'Shared words', true)]), { baseRevision: stored.revision });
    await canvases.write('c', canvas([node('b', 'Shared words')]), { baseRevision: stored.revision });
    expect(isPutAside(readPutAsides(weftHome), 'canvas-turn', 'Shared words')).toBe(true);
  });
});

describe('the put-aside log across processes', () => {
  const CHILD = fileURLToPath(new URL('./testing/put-aside-child.ts', import.meta.url));
  const struck = (text: string, op: PutAsideChange['op'] = 'put-aside') => struckSentenceChange(text, { op });

  it(
    "loses no other process's put-aside while restores rewrite the log, and the restored words are gone",
    { timeout: 120_000 },
    async () => {
      const weftHome = home();
      const store = new PutAsideStore(weftHome);
      const restored = Array.from({ length: 30 }, (_, index) => `Restore me ${index}`);
      await store.append(restored.map((text) => struck(text)));
      const appends = 150;
      const child = new Promise<void>((resolve, reject) => {
        execFile(process.execPath, ['--import', 'tsx', CHILD, weftHome, String(appends), 'b'], (error, _out, stderr) =>
          error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(),
        );
      });
      while (!existsSync(join(weftHome, 'ready-b'))) await new Promise((resolve) => setTimeout(resolve, 20));
      writeFileSync(join(weftHome, 'go'), '');
      // Each restore reads the log and replaces it whole while the other process appends, one line at a time.
      for (const text of restored) await store.append([struck(text, 'restored')]);
      await child;

      const log = readFileSync(putAsidePath(weftHome), 'utf8');
      const lines = log
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { rev: number; op: string });
      // Every line of both processes is there, each under its own revision, in the order written.
      expect(lines.filter((line) => line.op === 'put-aside')).toHaveLength(restored.length + appends);
      expect(lines.filter((line) => line.op === 'restored')).toHaveLength(restored.length);
      expect(lines.map((line) => line.rev)).toEqual(lines.map((_, index) => index + 1));
      // Read afresh, the other process's put-asides are all in force and the restored ones none.
      const keys = readPutAsides(weftHome);
      for (let index = 0; index < appends; index += 1)
        expect(isPutAside(keys, 'dossier-sentence', `Sentence ${index} struck by process b`)).toBe(true);
      expect(restored.filter((text) => isPutAside(keys, 'dossier-sentence', text))).toEqual([]);
      expect(keys.size).toBe(appends);
      expect(log).not.toContain('Restore me');
    },
  );
});
