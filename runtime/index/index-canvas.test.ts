import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CANVAS_FORMAT, CANVAS_VERSION, type CanvasDocument } from '../../protocol/canvas-document.ts';
import { storedCanvasDocument } from '../../protocol/canvas-stored-form.ts';
import type { SessionCatalog } from './session-catalog.ts';
import { WhyIndex } from './why-index.ts';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** No session roots: only the canvas records under WEFT_HOME feed this index. */
const noSessions: SessionCatalog = {
  roots: [],
  listSessionFiles: async () => [],
  readSessionFile: async () => {
    throw new Error('no session files in this test');
  },
  listMemoryFiles: async () => [],
};

const hash = 'a'.repeat(64);
const base = { createdAt: 1, position: { x: 0, y: 0 }, size: null, archivedAt: null, excludedParts: [] };

function canvas(archivedQuestion: boolean): CanvasDocument {
  return {
    format: CANVAS_FORMAT,
    version: CANVAS_VERSION,
    canvas: { id: 'c1', name: 'Research', workingDirectory: '/work/project', createdAt: 1 },
    nodes: [
      {
        ...base,
        id: 'q-live',
        kind: 'question',
        archived: false,
        question: 'Why does the parser drop unicode quotes?',
        versions: [
          {
            id: 'v1',
            text: 'Because the tokenizer strips curly quotes; see https://example.org/tokenizer and arXiv:2401.01234v2.',
            question: 'Why does the parser drop unicode quotes?',
            model: 'demo',
            createdAt: 5,
            requestHash: null,
            upstreamFingerprint: hash,
            upstream: { base: null, parts: [], removed: [] },
            origin: 'demo',
            status: 'complete',
            branchOf: null,
          },
        ],
        currentVersionId: 'v1',
        autoRerun: { enabled: false, rounds: 1 },
        model: null,
        attachments: [],
      },
      {
        ...base,
        id: 'q-archived',
        kind: 'question',
        archived: archivedQuestion,
        question: 'What about the zebra stripes secret?',
        versions: [],
        currentVersionId: null,
        autoRerun: { enabled: false, rounds: 1 },
        model: null,
        attachments: [],
      },
      {
        ...base,
        id: 'm-live',
        kind: 'material',
        archived: false,
        title: 'Tokenizer notes',
        text: 'Curly quotes become plain quotes early.',
        provenance: { type: 'pasted' },
      },
      {
        ...base,
        id: 'm-archived',
        kind: 'material',
        archived: true,
        title: 'Old',
        text: 'An archived platypus paragraph.',
        provenance: { type: 'pasted' },
      },
      {
        ...base,
        id: 'mirror-archived',
        kind: 'mirror',
        archived: true,
        question: 'Edit the walrus module',
        answer: 'Edited.',
        includeExecution: false,
        source: {
          runner: 'codex',
          sessionId: 's',
          turnKey: 'codex:s#1',
          turnNumber: 1,
          question: 'Edit the walrus module',
          answer: 'Edited.',
          model: null,
          at: 3,
          delegatedBy: null,
          steps: [
            {
              name: 'apply_patch',
              op: 'edit',
              inputSummary: '',
              files: ['/work/project/walrus.ts'],
              resultSummary: '',
              isError: false,
            },
          ],
        },
      },
    ],
    wires: [],
    attachments: [],
    dismissals: [],
    ledgers: [],
    events: [],
  };
}

describe('canvas records in the why index', () => {
  it('indexes live question and material nodes and never archived ones', async () => {
    const weftHome = mkdtempSync(join(tmpdir(), 'weft-canvas-'));
    directories.push(weftHome);
    mkdirSync(join(weftHome, 'canvases'));
    writeFileSync(join(weftHome, 'canvases', 'c1.weft.json'), JSON.stringify(canvas(true)));
    const index = WhyIndex.open({ env: { WEFT_HOME: weftHome }, catalog: noSessions });
    try {
      await index.refresh();
      const question = index.find('drop unicode quotes', { in: 'question' });
      expect(question).toHaveLength(1);
      expect(question[0]).toMatchObject({
        runner: 'canvas',
        sessionId: 'c1',
        turnKey: 'canvas:c1#q-live',
        cwd: '/work/project',
      });
      expect(index.find('tokenizer strips curly quotes', { in: 'answer' })).toHaveLength(1);
      expect(index.find('plain quotes early', { in: 'material' })[0]?.turnKey).toBe('canvas:c1#m-live');
      expect(index.why('https://example.org/tokenizer', { cwd: '/' }).hits[0]?.turnKey).toBe('canvas:c1#q-live');
      expect(index.why('arxiv:2401.01234', { cwd: '/' }).hits).toHaveLength(1);

      expect(index.find('zebra stripes secret')).toEqual([]);
      expect(index.find('platypus')).toEqual([]);
      expect(index.find('walrus module')).toEqual([]);
      expect(index.why('/work/project/walrus.ts', { cwd: '/' }).hits).toEqual([]);

      // Un-archiving is a rewrite of the record: the node shows up; archiving again hides it.
      writeFileSync(join(weftHome, 'canvases', 'c1.weft.json'), JSON.stringify(canvas(false)));
      await index.refresh();
      expect(index.find('zebra stripes secret')).toHaveLength(1);
    } finally {
      index.close();
    }
  });

  it('recalls a canvas turn only while its node is live on the record now, before the index has read a change', async () => {
    const weftHome = mkdtempSync(join(tmpdir(), 'weft-canvas-'));
    directories.push(weftHome);
    mkdirSync(join(weftHome, 'canvases'));
    const path = join(weftHome, 'canvases', 'c1.weft.json');
    writeFileSync(path, JSON.stringify(canvas(true)));
    const index = WhyIndex.open({ env: { WEFT_HOME: weftHome }, catalog: noSessions });
    try {
      await index.refresh();
      expect(index.recall({ turnKey: 'canvas:c1#q-live' }).question).toBe('Why does the parser drop unicode quotes?');
      // Archived on the canvas, not yet refreshed: the index still holds the row, the record decides.
      const archived = canvas(true);
      archived.nodes = archived.nodes.map((node) =>
        node.id === 'q-live' ? { ...node, archived: true, archivedAt: 2 } : node,
      );
      writeFileSync(path, JSON.stringify(archived));
      expect(() => index.recall({ turnKey: 'canvas:c1#q-live' })).toThrow(/archived or deleted on its canvas/);
      expect(() => index.recall({ sessionId: 'c1', turn: 1 })).toThrow(/archived or deleted on its canvas/);
      // Deleted with its canvas: gone too.
      writeFileSync(path, JSON.stringify(canvas(true)));
      expect(index.recall({ turnKey: 'canvas:c1#q-live' }).turnKey).toBe('canvas:c1#q-live');
      rmSync(path);
      expect(() => index.recall({ turnKey: 'canvas:c1#q-live' })).toThrow(/archived or deleted on its canvas/);
    } finally {
      index.close();
    }
  });

  it('indexes a record an older Weft wrote (version 3) and the stored form this one writes', async () => {
    const weftHome = mkdtempSync(join(tmpdir(), 'weft-canvas-'));
    directories.push(weftHome);
    mkdirSync(join(weftHome, 'canvases'));
    writeFileSync(join(weftHome, 'canvases', 'c1.weft.json'), JSON.stringify({ ...canvas(true), version: 3 }));
    writeFileSync(
      join(weftHome, 'canvases', 'c2.weft.json'),
      JSON.stringify(storedCanvasDocument({ ...canvas(true), canvas: { ...canvas(true).canvas, id: 'c2' } })),
    );
    const index = WhyIndex.open({ env: { WEFT_HOME: weftHome }, catalog: noSessions });
    try {
      const summary = await index.refresh();
      expect(summary.failed).toEqual([]);
      expect(index.find('drop unicode quotes', { in: 'question' })).toHaveLength(2);
    } finally {
      index.close();
    }
  });

  it('keeps the rows of a canvas whose record became corrupt, and reports it', async () => {
    const weftHome = mkdtempSync(join(tmpdir(), 'weft-canvas-'));
    directories.push(weftHome);
    mkdirSync(join(weftHome, 'canvases'));
    const path = join(weftHome, 'canvases', 'c1.weft.json');
    writeFileSync(path, JSON.stringify(canvas(true)));
    const index = WhyIndex.open({ env: { WEFT_HOME: weftHome }, catalog: noSessions });
    try {
      await index.refresh();
      writeFileSync(path, '{"format": "weft.canvas", "version": 1, "canv');
      const summary = await index.refresh();
      expect(summary.failed.map((failure) => failure.path)).toEqual([path]);
      expect(index.find('drop unicode quotes')).toHaveLength(1);
    } finally {
      index.close();
    }
  });
});
