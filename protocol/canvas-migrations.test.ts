import { describe, expect, it } from 'vitest';
import { CANVAS_VERSION } from './canvas-document.ts';
import { CANVAS_MIGRATIONS, draftToVersionOne, migrateCanvasDocument } from './canvas-migrations.ts';

const HASH = 'f'.repeat(64);

/** A file as the pre-release prototypes wrote it (version 0). */
function draftDocument() {
  return {
    format: 'weft.canvas',
    version: 0,
    canvas: { id: 'c1', name: 'Draft', workingDirectory: null, createdAt: 10 },
    nodes: [
      {
        id: 'q1',
        kind: 'question',
        createdAt: 10,
        position: { x: 0, y: 0 },
        archived: true,
        question: 'old question',
        currentVersionId: 'v1',
        versions: [
          {
            id: 'v1',
            text: 'old answer',
            question: 'old question',
            model: 'm',
            createdAt: 11,
            requestHash: null,
            upstreamFingerprint: HASH,
          },
        ],
      },
      { id: 'n1', kind: 'note', createdAt: 12, position: { x: 1, y: 1 }, archived: false, text: 'note' },
    ],
    wires: [{ id: 'w1', from: 'n1', to: 'q1', createdAt: 13, kind: 'dashed' }],
    attachments: [],
    log: [],
  };
}

describe('canvas migrations', () => {
  it('has one step per version, in order, ending at the current version', () => {
    CANVAS_MIGRATIONS.forEach((step, index) => {
      expect(step.from).toBe(index);
      expect(step.to).toBe(index + 1);
    });
    expect(CANVAS_MIGRATIONS.at(-1)!.to).toBe(CANVAS_VERSION);
  });

  it('draft-0-to-1 fills every field version 1 added, keeping the content', () => {
    const result = migrateCanvasDocument(draftDocument());
    if (!result.ok) throw new Error(result.error.message);
    expect(result.applied).toEqual([draftToVersionOne.name]);
    const [question, note] = result.document.nodes;
    expect(question).toMatchObject({
      kind: 'question',
      question: 'old question',
      archivedAt: 10,
      excludedParts: [],
      size: null,
      autoRerun: { enabled: false, rounds: 1 },
      model: null,
      attachments: [],
    });
    expect(question!.kind === 'question' && question!.versions[0]).toMatchObject({
      text: 'old answer',
      upstreamParts: [],
      origin: 'generated',
      status: 'complete',
      branchOf: null,
    });
    expect(note).toMatchObject({ kind: 'note', text: 'note', archivedAt: null });
    expect(result.document.wires[0]).toMatchObject({ kind: 'dashed', depth: 'quote' });
    expect(result.document).toMatchObject({ version: 1, dismissals: [], ledgers: [], events: [] });
  });

  it('accepts a current document unchanged', () => {
    const first = migrateCanvasDocument(draftDocument());
    if (!first.ok) throw new Error('setup');
    const again = migrateCanvasDocument(JSON.parse(JSON.stringify(first.document)));
    expect(again.ok && again.applied).toEqual([]);
    expect(again.ok && again.document).toEqual(first.document);
  });

  it('refuses a file made by a newer Weft', () => {
    const result = migrateCanvasDocument({ ...draftDocument(), version: CANVAS_VERSION + 1 });
    expect(!result.ok && result.error.code).toBe('newer-version');
    expect(!result.ok && result.error.message).toMatch(/newer Weft/);
  });

  it('refuses foreign and corrupt files, naming the bad field', () => {
    for (const foreign of [null, 'text', [], { format: 'other' }]) {
      const result = migrateCanvasDocument(foreign);
      expect(!result.ok && result.error.code).toBe('not-a-canvas');
    }
    const corrupt = draftDocument();
    corrupt.nodes[0]!.versions![0]!.upstreamFingerprint = 'not-a-hash';
    const result = migrateCanvasDocument(corrupt);
    expect(!result.ok && result.error).toMatchObject({
      code: 'corrupt',
      path: 'nodes.0.versions.0.upstreamFingerprint',
    });
    expect(!result.ok && result.error.message).toMatch(/nodes\.0\.versions\.0\.upstreamFingerprint/);
    const noVersion = migrateCanvasDocument({ format: 'weft.canvas', version: 'one' });
    expect(!noVersion.ok && noVersion.error.code).toBe('corrupt');
  });
});
