import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Dossier } from '../../protocol/index.ts';
import { verifyChain } from '../../src/core/index.ts';
import { dossierDatabasePath, openDossierStore, type DossierStore } from './index.ts';

const CHILD = fileURLToPath(new URL('./testing/file-facts-child.ts', import.meta.url));

let home: string;
let store: DossierStore;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'weft-dossiers-'));
  store = openDossierStore(home);
});
afterEach(() => {
  store.close();
  rmSync(home, { recursive: true, force: true });
});

function spawnFiler(tag: string, count: number, topic: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', CHILD, home, String(count), tag, topic], (error, _out, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(),
    );
  });
}

const dossier = (version: number, citations = ['canvas:c#n@v']): Dossier => ({
  format: 'weft.dossier',
  topicId: 't1',
  version,
  writtenAt: version,
  sections: { what: [{ id: `s${version}`, text: 'A sentence.', citations }], decisions: [], status: [], open: [] },
});

describe('the dossier store (SQLite, one IMMEDIATE transaction per write)', () => {
  it(
    'five concurrent filings from five processes all land, with an unbroken event chain',
    { timeout: 120_000 },
    async () => {
      const tags = ['a', 'b', 'c', 'd', 'e'];
      const filers = Promise.all(tags.map((tag) => spawnFiler(tag, 20, tag === 'e' ? '-' : 't1')));
      // Every process has its own connection open before any writes, so their writes overlap.
      while (!tags.every((tag) => existsSync(join(home, `ready-${tag}`))))
        await new Promise((resolve) => setTimeout(resolve, 20));
      writeFileSync(join(home, 'go'), '');
      await filers;
      expect(store.pending('t1')).toHaveLength(80);
      expect(store.pending(null)).toHaveLength(20);
      const events = store.events();
      expect(events).toHaveLength(100);
      expect(events.every((event) => event.op === 'dossier-fact-filed')).toBe(true);
      expect(verifyChain(events)).toBeNull();
      expect(statSync(dossierDatabasePath(home)).mode & 0o777).toBe(0o600);
    },
  );

  it('keeps every version as history and consumes only the facts a write read', () => {
    const [first] = store.fileFact({ text: 'Uses Dexie.', turnKey: 'canvas:c#n@v', topicIds: ['t1'] });
    const written = store.writeVersion({
      topicId: 't1',
      mode: 'update',
      modelId: 'p/m',
      baseVersion: 0,
      dossier: dossier(1),
      dropped: [{ section: 'what', text: 'Invented.', unknownKeys: ['x'] }],
      turnsRead: ['canvas:c#n@v'],
      factsRead: [first!.id],
    });
    expect(written.consumed).toEqual([first!.id]);
    // A fact filed while the next run is writing is not among what it read: it waits.
    const [late] = store.fileFact({ text: 'Targets Electron.', turnKey: 'canvas:c#m@v', topicIds: ['t1'] });
    store.writeVersion({
      topicId: 't1',
      mode: 'update',
      modelId: 'p/m',
      baseVersion: 1,
      dossier: dossier(2),
      dropped: [],
      turnsRead: [],
      factsRead: [],
    });
    expect(store.pending('t1').map((fact) => fact.id)).toEqual([late!.id]);
    expect(store.read('t1')?.version).toBe(2);
    expect(store.version('t1', 1)?.dossier).toEqual(dossier(1));
    expect(store.history('t1').map((entry) => [entry.version, entry.dropped, entry.factsRead])).toEqual([
      [2, 0, 0],
      [1, 1, 1],
    ]);
    expect(store.readKeys('t1')).toEqual(new Set(['canvas:c#n@v']));
    const events = store.events();
    expect(events.map((event) => event.op)).toEqual([
      'dossier-fact-filed',
      'dossier-written',
      'dossier-fact-filed',
      'dossier-written',
    ]);
    expect(JSON.stringify(events)).not.toContain('Dexie');
  });

  it('refuses a write based on a version that is no longer the newest, writing nothing', () => {
    const base = { topicId: 't1', mode: 'update' as const, modelId: null, dropped: [], turnsRead: [], factsRead: [] };
    store.writeVersion({ ...base, baseVersion: 0, dossier: dossier(1) });
    expect(() => store.writeVersion({ ...base, baseVersion: 0, dossier: dossier(1) })).toThrow(
      expect.objectContaining({ code: 'dossier-changed' }),
    );
    expect(store.history('t1')).toHaveLength(1);
  });

  it('the general inbox: a fact is filed to a topic or discarded by the person, an event each', () => {
    const [one] = store.fileFact({ text: 'Builds a compiler.', turnKey: null, topicIds: [] });
    const [two] = store.fileFact({ text: 'Uses Rust.', turnKey: null, topicIds: [] });
    store.fileInboxFact(one!.id, 't9');
    store.discardInboxFact(two!.id);
    expect(store.pending(null)).toEqual([]);
    expect(store.pending('t9').map((fact) => fact.text)).toEqual(['Builds a compiler.']);
    expect(() => store.discardInboxFact(two!.id)).toThrow(expect.objectContaining({ code: 'inbox-fact-unknown' }));
    expect(
      store
        .events()
        .map((event) => event.op)
        .slice(2),
    ).toEqual(['dossier-inbox-filed', 'dossier-inbox-discarded']);
  });
});
