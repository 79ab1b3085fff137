import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryJournalPage, PutAsideListResponse } from '../protocol/index.ts';
import { openDossierStore } from '../runtime/dossiers/index.ts';
import { startTestServer } from '../tests/support/test-server.ts';
import { runWeftInProcess } from './run-weft.ts';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'weft-cli-sentences-'));
  mkdirSync(join(folder, 'sessions'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

const home = () => join(folder, 'home');
const weft = (...argv: string[]) =>
  runWeftInProcess(argv, { cwd: folder, env: { WEFT_HOME: home(), WEFT_SESSION_ROOTS: join(folder, 'sessions') } });
const KEEP = 'The importer streams the export in chunks.';
const DROP = 'The importer was written in one night.';

/** Two sentences waiting, as a dossier run with review on files them (the real store). */
function twoWaiting(): string[] {
  const store = openDossierStore(home());
  try {
    const filed = store.sentenceProposals().propose('topic-1', [
      { section: 'what', text: KEEP, citations: ['canvas:c#n@v'] },
      { section: 'open', text: DROP, citations: ['canvas:c#n@v'] },
    ]);
    return filed.map((proposal) => proposal.id);
  } finally {
    store.close();
  }
}
const dossierTexts = () => {
  const store = openDossierStore(home());
  try {
    const dossier = store.read('topic-1');
    return dossier ? Object.values(dossier.sections).flatMap((section) => section.map((each) => each.text)) : [];
  } finally {
    store.close();
  }
};

describe('weft memory inbox | accept | reject for dossier sentences (issue 29.1)', () => {
  it('lists them in the Inbox; accept writes the dossier, reject puts the words aside; both journaled', async () => {
    const [keep, drop] = twoWaiting();
    const listed = await weft('memory', 'inbox');
    expect(listed.stdout).toContain(`${keep}  `);
    expect(listed.stdout).toContain(KEEP);
    expect(listed.stdout).toContain('dossier sentence (topic topic-1, open)');
    expect(listed.stdout).toContain('cites: canvas:c#n@v');

    expect((await weft('memory', 'accept', keep!)).stdout).toContain("it is in its topic's dossier now");
    expect(dossierTexts()).toEqual([KEEP]);
    expect((await weft('memory', 'reject', drop!)).stdout).toContain('its words are put aside');
    expect(dossierTexts()).toEqual([KEEP]);
    const putAside = JSON.parse((await weft('memory', 'put-asides', '--json')).stdout) as PutAsideListResponse;
    expect(putAside.items).toMatchObject([{ kind: 'dossier-sentence', reason: 'rejected', excerpt: DROP }]);
    const journal = JSON.parse((await weft('memory', 'journal', '--json')).stdout) as MemoryJournalPage;
    expect(journal.entries.map((entry) => entry.event.op)).toEqual(
      expect.arrayContaining(['memory-accepted', 'memory-rejected', 'memory-put-aside']),
    );
    expect((await weft('memory', 'journal', '--verify')).code).toBe(0);
    expect(JSON.parse((await weft('memory', 'inbox', '--json')).stdout).dossierSentences).toEqual([]);
  });

  it('decides through the running server for this home', async () => {
    const [keep] = twoWaiting();
    const server = await startTestServer({ home: home() });
    try {
      const published: string[] = [];
      const stop = server.context.hub.subscribe((event) => published.push(event.type));
      expect((await weft('memory', 'accept', keep!)).code).toBe(0);
      stop();
      expect(published).toContain('memory-changed');
      expect(dossierTexts()).toEqual([KEEP]);
    } finally {
      await server.close();
    }
  });
});
