import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Dossier, TopicRecord } from '../../protocol/index.ts';
import { planRecall, recallRequestFor } from '../../src/core/recall/index.ts';
import { estimateTokensByLength, TestCanvas } from '../../src/core/index.ts';
import { openDossierStore, type DossierStore } from '../dossiers/index.ts';
import { sentencesHeldAt } from '../../src/core/dossiers/index.ts';
import { storedDossiers } from './stored-dossiers.ts';

const MARCH = Date.UTC(2026, 2, 1);
const APRIL = Date.UTC(2026, 3, 1);
const JUNE = Date.UTC(2026, 5, 1);
const CITED = 'claude-code:s1#1';
const TOPICS = { topics: [{ id: 't1', name: 'Storage' }] } as unknown as TopicRecord;

let home: string;
let store: DossierStore;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'weft-dossiers-as-of-'));
  store = openDossierStore(home);
});
afterEach(() => {
  store.close();
  rmSync(home, { recursive: true, force: true });
});

/** Version `version` of the Storage dossier, written at `writtenAt`, whose one decision says `text`. */
function write(version: number, writtenAt: number, text: string): void {
  const dossier: Dossier = {
    format: 'weft.dossier',
    topicId: 't1',
    version,
    writtenAt,
    sections: { what: [], decisions: [{ id: 'storage', text, citations: [CITED] }], status: [], open: [] },
  };
  store.writeVersion({
    topicId: 't1',
    mode: version === 1 ? 'rebuild' : 'update',
    modelId: 'p/m',
    baseVersion: version - 1,
    dropped: [],
    turnsRead: [CITED],
    factsRead: [],
    dossier,
  });
}

/** Recall's block for a question about storage, with the dossiers as of `asOf` (null: now). */
function block(asOf: number | null): string | null {
  return planRecall({
    question: 'Where is the varroa count stored?',
    terms: ['varroa', 'stored'],
    canvasId: 'active',
    project: null,
    global: true,
    struck: [],
    archived: () => false,
    citedFolder: () => null,
    candidates: [],
    dossiers: storedDossiers(store, TOPICS).dossiersFor(['t1'], asOf),
    // A dossier is a model's summary (#29: inferred): read behind the node's switch.
    includeInferred: true,
    ceiling: 'small',
    contextWindow: 200_000,
    estimateTokens: estimateTokensByLength,
    asOf,
  }).block;
}

describe('recall of a dossier "as of" a date (#29.4)', () => {
  it('a sentence superseded by a later version leaves the current block and is served as of a date before the change', () => {
    write(1, MARCH, 'The varroa count is stored in a CSV file.');
    write(2, JUNE, 'The varroa count is stored in SQLite, per hive.');
    const now = block(null)!;
    expect(now.split('\n')[0]).toBe('[Recall]');
    expect(now).toContain('stored in SQLite, per hive.');
    expect(now).not.toContain('CSV');

    const then = block(APRIL)!;
    expect(then.split('\n')[0]).toBe('[Recall as of 2026-04-01T00:00:00.000Z]');
    expect(then).toContain('stored in a CSV file.');
    expect(then).not.toContain('SQLite');
    // Before the first version there was no dossier to recall.
    expect(block(MARCH - 1)).toBeNull();
    expect(block(JUNE)).toContain('SQLite');
  });

  it('serves as of a date exactly the sentences whose interval holds then (the panel\'s "holds since")', () => {
    write(1, MARCH, 'The varroa count is stored in a CSV file.');
    write(2, JUNE, 'The varroa count is stored in SQLite, per hive.');
    const source = storedDossiers(store, TOPICS);
    for (const time of [MARCH - 1, MARCH, APRIL, JUNE - 1, JUNE, JUNE + 1]) {
      const served = source.dossiersFor(['t1'], time).flatMap((dossier) => dossier.sentences.map((each) => each.text));
      expect(served, `at ${time}`).toEqual(sentencesHeldAt(store.versions('t1'), time));
    }
  });

  it("a node's as-of date reaches its recall request (absent, the request is as before)", () => {
    const canvas = new TestCanvas();
    const node = canvas.addQuestion('Where is the varroa count stored?');
    canvas.edit(node, { recall: { enabled: true, global: true, reach: 'light', ceiling: 'small', struck: [] } });
    const question = () => canvas.graph.nodes.get(node)!;
    const request = () => {
      const current = question();
      if (current.kind !== 'question') throw new Error('not a question');
      return recallRequestFor(canvas.graph, current, {});
    };
    expect(request()).not.toHaveProperty('memoryReading');
    canvas.edit(node, { memoryReading: { includeInferred: false, asOf: APRIL } });
    expect(request()).toMatchObject({ memoryReading: { asOf: APRIL } });
  });
});
